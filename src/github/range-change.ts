import { checkedLimit } from '../git/blob-limit.js';
import type { Change } from '../model/change.js';
import { type ApiTree, readApiTree, type TreeReader } from './api-trees.js';
import type { GitHubClient } from './github-client.js';
import { readListedChange } from './listed-change.js';
import { type ListedFile, listedFile } from './pull-request-files.js';
import type { PlanListing } from './pull-request-plan.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** Two commits of one repository: the change is `git diff base...head`. */
export interface RangeTarget extends RepositoryCoordinates {
  readonly baseSha: string;
  readonly headSha: string;
}

export interface ReadRangeChangeOptions {
  /** Blobs above this many bytes are `too-large` and never downloaded; 1 MiB by default (a lockfile AUREUS reads: 16 MiB at least). */
  readonly maxBlobBytes?: number;
  /**
   * Reads the base and head trees (by commit id); `readApiTree` by default. A check passes a
   * memoized reader so that its analyses of the same commits do not read them again.
   */
  readonly readTree?: TreeReader;
}

/**
 * GitHub's compare lists at most this many changed files ("up to 300 changed files for the
 * entire comparison") and says nothing of the ones it leaves out: no count, no flag.
 */
export const MAX_COMPARE_FILES = 300;

const COMPARE_LISTING: PlanListing = {
  name: 'the compare',
  mismatch: "GitHub's compare and its head tree disagree",
};

/**
 * The Change of `git diff base...head` (merge base → head), read over the REST API with no
 * checkout: the same Change that `readChange(root, { kind: 'range', base, head, threeDot: true })`
 * builds from git, with `source: 'github'`. For a merge queue's group, whose head descends from
 * its base, the merge base is the base. The files are those of `readPullRequestChange`, from
 * GitHub's compare instead of a pull request's listing (same rename rules, same `similarity`).
 *
 * Requests: repos.compareCommits (the merge base and the changed files), git.getTree of the
 * head and of the merge base (recursive), one git.getBlob per distinct blob at most 8 at a time
 * (never for symlinks, submodules or blobs over the read limit). Commits are immutable, so
 * nothing is read twice to see whether it moved. A token with `contents: read` is enough.
 *
 * Fails closed: besides what makes any listed change incomplete (see `readListedChange`), the
 * compare's listing must be whole. GitHub cuts it at 300 files without saying so; AUREUS holds
 * it against the two trees, which show every path whose entry changed, and any changed path
 * the listing misses makes the change incomplete. When a tree is truncated that cannot be
 * shown, so a listing of 300 files (or none at all) is then taken as cut. Other API errors
 * (authentication, permissions, an unknown commit, rate limits after retries) are thrown.
 */
export async function readRangeChange(
  client: GitHubClient,
  target: RangeTarget,
  options: ReadRangeChangeOptions = {},
): Promise<Change> {
  const maxBytes = checkedLimit(options.maxBlobBytes);
  const { owner, repo, baseSha, headSha } = target;
  const repository = { owner, repo };
  const readTree = options.readTree ?? ((treeish) => readApiTree(client, repository, treeish));
  const [{ data: compare }, headTree] = await Promise.all([
    client.rest.repos.compareCommits({
      owner,
      repo,
      base: baseSha,
      head: headSha,
      // Paged, the files still come whole on the first page; the commits are not needed.
      per_page: 1,
    }),
    readTree(headSha),
  ]);
  const mergeBase = compare.merge_base_commit.sha;
  const baseTree = mergeBase === headSha ? headTree : await readTree(mergeBase);
  const listed = (compare.files ?? []).map(listedFile);
  const listing = await readListedChange(
    client,
    repository,
    { listed, baseTree, headTree, listing: COMPARE_LISTING },
    maxBytes,
  );
  const cut = cutListingNote(listed, baseTree, headTree, {
    ...target,
    sent: compare.files !== undefined,
  });
  return {
    source: 'github',
    baseSha: mergeBase,
    headSha,
    files: listing.files,
    complete: cut === undefined && listing.complete,
    notes: [...(cut === undefined ? [] : [cut]), ...listing.notes],
  };
}

interface ListingContext {
  readonly baseSha: string;
  readonly headSha: string;
  /** False when the compare had no `files` at all. */
  readonly sent: boolean;
}

/** Why the compare's listing is not known to be whole, or undefined when it is. */
function cutListingNote(
  listed: readonly ListedFile[],
  base: ApiTree,
  head: ApiTree,
  context: ListingContext,
): string | undefined {
  const remedy = `check the range on a checkout (\`aureus check --base ${context.baseSha} --head ${context.headSha} --three-dot\`), or split it (for a merge queue, a smaller group).`;
  if (base.truncated || head.truncated) {
    if (context.sent && listed.length < MAX_COMPARE_FILES) return undefined;
    const said = context.sent
      ? `GitHub's compare listed ${listed.length} changed files, the most it lists (it stops at ${MAX_COMPARE_FILES} without saying how many more changed)`
      : "GitHub's compare sent no list of changed files";
    return `${said}, and a truncated tree cannot show what it left out, so changed files may not have been read; ${remedy}`;
  }
  const missed = unlistedPaths(listed, base, head);
  if (missed.length === 0) return undefined;
  const shown = missed.slice(0, 3).join(', ');
  const more = missed.length > 3 ? ` and ${missed.length - 3} more` : '';
  return `GitHub's compare listed ${listed.length} changed files (it stops at ${MAX_COMPARE_FILES} without saying how many more changed), but the trees show ${missed.length} more changed paths (${shown}${more}) that were not read; ${remedy}`;
}

/**
 * The paths whose tree entries differ between base and head (a blob id or a mode) that no
 * listed file accounts for, in code-unit order. A path present at the head must be listed under
 * its own name; a path gone from the head may also be the old name of a rename. A copy's source
 * accounts for nothing: it is unchanged, or listed on its own.
 */
function unlistedPaths(listed: readonly ListedFile[], base: ApiTree, head: ApiTree): string[] {
  const named = new Set(listed.map((file) => file.filename));
  const renamedFrom = new Set(
    listed.flatMap((file) =>
      file.status === 'renamed' && file.previousFilename !== undefined
        ? [file.previousFilename]
        : [],
    ),
  );
  const missed: string[] = [];
  for (const [path, entry] of head.entries) {
    const before = base.entries.get(path);
    const same = before !== undefined && before.sha === entry.sha && before.mode === entry.mode;
    if (!same && !named.has(path)) missed.push(path);
  }
  for (const path of base.entries.keys()) {
    if (!head.entries.has(path) && !named.has(path) && !renamedFrom.has(path)) missed.push(path);
  }
  return missed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
