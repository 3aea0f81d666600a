import { checkedLimit } from '../git/blob-limit.js';
import type { Change } from '../model/change.js';
import { readApiTree, type TreeReader } from './api-trees.js';
import type { GitHubClient } from './github-client.js';
import { readListedChange } from './listed-change.js';
import { listPullRequestFiles, MAX_LISTED_FILES } from './pull-request-files.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

export interface PullRequestTarget extends RepositoryCoordinates {
  readonly number: number;
}

export interface ReadPullRequestChangeOptions {
  /** Blobs above this many bytes are `too-large` and never downloaded; 1 MiB by default (a lockfile AUREUS reads: 16 MiB at least). */
  readonly maxBlobBytes?: number;
  /**
   * Reads the base and head trees (by commit id); `readApiTree` by default. A check passes a
   * memoized reader so that its analyses of the same commits do not read them again.
   */
  readonly readTree?: TreeReader;
}

/**
 * The Change of a pull request, read over the REST API with no checkout: the same Change that
 * `readChange(root, { kind: 'range', base, head, threeDot: true })` builds from git, with
 * `source: 'github'`. The diff is GitHub's: merge base → head, with GitHub's rename detection.
 *
 * Requests: pulls.get, repos.compareCommits (the merge base), pulls.listFiles (100 a page),
 * git.getTree of the merge base and of the head (recursive), one git.getBlob per distinct blob
 * at most 8 at a time (never for symlinks, submodules or blobs over the read limit), and
 * pulls.get again to see that the pull request did not move meanwhile. A token with
 * `contents: read` and `pull_requests: read` is enough.
 *
 * Differences from git's Change, on purpose:
 * - `similarity` is 100 for a rename or copy whose blob is unchanged (git's exact rename) and
 *   absent otherwise: GitHub does not send it, and guessing git's score would be a fiction.
 * - renames and copies are GitHub's, not `git diff -M -C`'s.
 *
 * Fails closed: anything GitHub did not say in full (the 3,000-file cap of the listing, a file
 * with no patch and zero counts that its contents do not explain, a truncated tree missing a
 * path, a blob that cannot be read, a head that moved) gives `complete: false` and a note.
 * Other API errors (authentication, permissions, rate limits after retries) are thrown.
 */
export async function readPullRequestChange(
  client: GitHubClient,
  target: PullRequestTarget,
  options: ReadPullRequestChangeOptions = {},
): Promise<Change> {
  const maxBytes = checkedLimit(options.maxBlobBytes);
  const { owner, repo } = target;
  const repository = { owner, repo };
  const pull = await readPull(client, target);
  // Fork heads are readable in the base repository (GitHub keeps them under refs/pull/N/head),
  // so every request below goes to the base repository.
  const { data: compare } = await client.rest.repos.compareCommits({
    owner,
    repo,
    base: pull.baseSha,
    head: pull.headSha,
    // The commits are not needed, only the merge base; the fewest GitHub will send.
    per_page: 1,
  });
  const mergeBase = compare.merge_base_commit;
  const readTree = options.readTree ?? ((treeish) => readApiTree(client, repository, treeish));
  // By commit id, as the analyses ask for them: GitHub answers with the commit's tree.
  const [listed, baseTree, headTree] = await Promise.all([
    listPullRequestFiles(client, target),
    readTree(mergeBase.sha),
    readTree(pull.headSha),
  ]);
  const listing = await readListedChange(
    client,
    repository,
    { listed, baseTree, headTree },
    maxBytes,
  );
  const notes: string[] = [];
  // `changed_files` keeps the real count when the listing stops at 3,000.
  const capped = listed.length < pull.changedFiles || listed.length > MAX_LISTED_FILES;
  if (capped) {
    notes.push(
      `GitHub listed ${listed.length} of the pull request's ${pull.changedFiles} changed files (its files API stops at ${MAX_LISTED_FILES}); the others were not read.`,
    );
  }
  notes.push(...listing.notes);
  let complete = !capped && listing.complete;

  const after = await readPull(client, target);
  if (after.headSha !== pull.headSha || after.baseSha !== pull.baseSha) {
    notes.push(
      `The pull request moved while it was read (head ${pull.headSha} → ${after.headSha}, base ${pull.baseSha} → ${after.baseSha}); run again on the new head.`,
    );
    complete = false;
  }
  return {
    source: 'github',
    baseSha: mergeBase.sha,
    headSha: pull.headSha,
    files: listing.files,
    complete,
    notes,
  };
}

interface PullSides {
  readonly baseSha: string;
  readonly headSha: string;
  readonly changedFiles: number;
}

async function readPull(client: GitHubClient, target: PullRequestTarget): Promise<PullSides> {
  const { data } = await client.rest.pulls.get({
    owner: target.owner,
    repo: target.repo,
    pull_number: target.number,
  });
  return { baseSha: data.base.sha, headSha: data.head.sha, changedFiles: data.changed_files };
}
