import { createHash } from 'node:crypto';
import { mapLimited } from '../git/map-limited.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * Blob requests in flight at once: enough to hide the round trips, few enough to stay clear
 * of GitHub's secondary rate limit on concurrent requests (it asks for no more than 100).
 */
export const BLOB_REQUESTS_IN_FLIGHT = 8;

/** A blob's bytes, or why they could not be had (the change is then incomplete). */
export type BlobRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly problem: string };

/**
 * Statuses that mean "this blob cannot be read" rather than "the API is failing": missing
 * (404), conflict or gone (409, 410: e.g. an empty or deleted repository), unprocessable (422).
 * 403 is not among them: it means a missing permission or a rate limit, an error to surface.
 */
const UNREADABLE_STATUSES = new Set([404, 409, 410, 422]);

/**
 * Downloads each distinct blob once, `BLOB_REQUESTS_IN_FLIGHT` at a time, and checks that the
 * bytes hash to the id asked for: the facts cache is keyed by that id, so bytes that do not
 * match it would poison it. Other API errors (auth, rate limit after retries, 5xx) are thrown.
 */
export async function readApiBlobs(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  shas: readonly string[],
): Promise<Map<string, BlobRead>> {
  const unique = [...new Set(shas)];
  const reads = await mapLimited(unique, BLOB_REQUESTS_IN_FLIGHT, (sha) =>
    readApiBlob(client, repository, sha),
  );
  return new Map(unique.map((sha, index) => [sha, reads[index] ?? missing(sha)]));
}

async function readApiBlob(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  sha: string,
): Promise<BlobRead> {
  let content: string;
  let encoding: string;
  try {
    const { data } = await client.rest.git.getBlob({
      owner: repository.owner,
      repo: repository.repo,
      file_sha: sha,
    });
    content = data.content;
    encoding = data.encoding;
  } catch (error) {
    const status = statusOf(error);
    if (status !== undefined && UNREADABLE_STATUSES.has(status)) {
      return { ok: false, problem: `GitHub answered ${status} for blob ${sha}` };
    }
    throw error;
  }
  const bytes = Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8');
  if (gitBlobId(bytes, sha.length) !== sha) {
    return { ok: false, problem: `the bytes GitHub sent for blob ${sha} do not hash to that id` };
  }
  return { ok: true, bytes };
}

/** The id git gives these bytes as a blob: SHA-1, or SHA-256 for a 64-digit id. */
function gitBlobId(bytes: Buffer, idLength: number): string {
  return createHash(idLength === 64 ? 'sha256' : 'sha1')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

function missing(sha: string): BlobRead {
  return { ok: false, problem: `blob ${sha} was not read` };
}
