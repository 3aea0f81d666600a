import { setTimeout as sleep } from 'node:timers/promises';
import { formatLine, GENESIS_HASH, serializeRecord } from '../memory/journal-format.js';
import type { JsonObject } from '../model/json.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * The repository's shared ledger: a branch of its own holding one file per evaluated head
 * commit (`entries/<sha>.json`). Concurrent merges never conflict, because no two runs write
 * the same file, and a run that is repeated finds its file and writes nothing: one entry per
 * (head SHA). The branch is written only by CI through the API; pull requests never touch it.
 */
export const SHARED_LEDGER_BRANCH = 'aureus-ledger';
export const SHARED_LEDGER_FOLDER = 'entries';

/** Concurrent writers move the branch under each other; each retry re-reads it. */
const ATTEMPTS = 5;
const RETRY_BASE_MS = 300;

export type SharedLedgerResult = 'written' | 'present';

export interface SharedLedgerEntry {
  readonly headSha: string;
  /** ISO time of the check. */
  readonly at: string;
  readonly record: JsonObject;
}

/** Each entry file is one checksummed journal line, readable by `aureus ledger`. */
export function sharedLedgerLine(entry: SharedLedgerEntry): string {
  return `${formatLine(GENESIS_HASH, entry.at, serializeRecord(entry.record)).text}\n`;
}

export async function appendToSharedLedger(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  entry: SharedLedgerEntry,
): Promise<SharedLedgerResult> {
  if (!/^[0-9a-f]{40,64}$/.test(entry.headSha))
    throw new RangeError(`not a commit id: ${entry.headSha}`);
  const path = `${SHARED_LEDGER_FOLDER}/${entry.headSha}.json`;
  const content = sharedLedgerLine(entry);
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(client, repository, path, content, entry.headSha);
    } catch (error) {
      // 409: the branch moved under us; 422 on create-ref: another run created the branch.
      const status = statusOf(error);
      if (attempt >= ATTEMPTS || (status !== 409 && status !== 422)) throw error;
      await sleep(RETRY_BASE_MS * attempt + Math.floor(Math.random() * RETRY_BASE_MS));
    }
  }
}

async function writeOnce(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  path: string,
  content: string,
  headSha: string,
): Promise<SharedLedgerResult> {
  const message = `aureus: ledger entry for ${headSha}`;
  if (!(await branchExists(client, repository))) {
    await createLedgerBranch(client, repository, path, content, message);
    return 'written';
  }
  if (await fileExists(client, repository, path)) return 'present';
  await client.rest.repos.createOrUpdateFileContents({
    ...repository,
    path,
    branch: SHARED_LEDGER_BRANCH,
    message,
    content: Buffer.from(content, 'utf8').toString('base64'),
  });
  return 'written';
}

async function branchExists(client: GitHubClient, repository: RepositoryCoordinates) {
  try {
    await client.rest.git.getRef({ ...repository, ref: `heads/${SHARED_LEDGER_BRANCH}` });
    return true;
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}

async function fileExists(client: GitHubClient, repository: RepositoryCoordinates, path: string) {
  try {
    await client.rest.repos.getContent({ ...repository, path, ref: SHARED_LEDGER_BRANCH });
    return true;
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}

/** The branch starts as an orphan commit (no parent): it shares no history with the code. */
async function createLedgerBranch(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  path: string,
  content: string,
  message: string,
): Promise<void> {
  const tree = await client.rest.git.createTree({
    ...repository,
    tree: [{ path, mode: '100644', type: 'blob', content }],
  });
  const commit = await client.rest.git.createCommit({
    ...repository,
    message,
    tree: tree.data.sha,
    parents: [],
  });
  await client.rest.git.createRef({
    ...repository,
    ref: `refs/heads/${SHARED_LEDGER_BRANCH}`,
    sha: commit.data.sha,
  });
}
