import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** GitHub's files API never lists more than this many files, however large the pull request. */
export const MAX_LISTED_FILES = 3000;

/** What AUREUS keeps of one `diff-entry`: the patch text itself is dropped page by page. */
export interface ListedFile {
  /** `added`, `removed`, `modified`, `renamed`, `copied`, `changed` or `unchanged`. */
  readonly status: string;
  readonly filename: string;
  readonly previousFilename?: string;
  /** The blob after the change (GitHub's `sha`); null when GitHub sends none. */
  readonly sha: string | null;
  readonly additions: number;
  readonly deletions: number;
  /** False when GitHub sent no `patch`: a binary file, no hunks, or a truncated diff. */
  readonly hasPatch: boolean;
}

/**
 * Every file of the pull request's listing, 100 a page (the most GitHub sends). Patches are
 * dropped as each page arrives, so a 3,000-file listing with big diffs does not stay in memory;
 * the contents come from blobs, the patch only tells whether GitHub truncated the diff.
 */
export async function listPullRequestFiles(
  client: GitHubClient,
  target: RepositoryCoordinates & { readonly number: number },
): Promise<ListedFile[]> {
  return client.paginate(
    client.rest.pulls.listFiles,
    { owner: target.owner, repo: target.repo, pull_number: target.number, per_page: 100 },
    (response) => response.data.map(listedFile),
  );
}

/** GitHub's `diff-entry`, as the files API, a commit and a compare list it. */
export type DiffEntry = Awaited<
  ReturnType<GitHubClient['rest']['pulls']['listFiles']>
>['data'][number];

/** What AUREUS keeps of a `diff-entry` (the same schema wherever GitHub lists changed files). */
export function listedFile(entry: DiffEntry): ListedFile {
  return {
    status: entry.status,
    filename: entry.filename,
    ...(entry.previous_filename === undefined ? {} : { previousFilename: entry.previous_filename }),
    sha: typeof entry.sha === 'string' ? entry.sha : null,
    additions: entry.additions,
    deletions: entry.deletions,
    hasPatch: typeof entry.patch === 'string',
  };
}
