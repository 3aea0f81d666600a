import { checkedLimit } from '../git/blob-limit.js';
import {
  describeBlob,
  SUBMODULE_MODE,
  SYMLINK_MODE,
  submoduleVersion,
} from '../git/blob-version.js';
import type { Change, ChangedFile, FileVersion } from '../model/change.js';
import { type BlobRead, readApiBlobs } from './api-blobs.js';
import { readApiTree } from './api-trees.js';
import type { GitHubClient } from './github-client.js';
import { listPullRequestFiles, MAX_LISTED_FILES } from './pull-request-files.js';
import {
  type PlannedFile,
  type PlannedSide,
  planFiles,
  UNKNOWN_MODE,
} from './pull-request-plan.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

export interface PullRequestTarget extends RepositoryCoordinates {
  readonly number: number;
}

export interface ReadPullRequestChangeOptions {
  /** Blobs above this many bytes are `too-large` and never downloaded; 1 MiB by default. */
  readonly maxBlobBytes?: number;
}

/** A version and, when it is a placeholder, why (the change is then incomplete). */
interface VersionRead {
  readonly version: FileVersion;
  readonly problem?: string;
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
  const [listed, baseTree, headTree] = await Promise.all([
    listPullRequestFiles(client, target),
    readApiTree(client, repository, mergeBase.commit.tree.sha),
    readApiTree(client, repository, pull.headSha),
  ]);
  const notes: string[] = [];
  // `changed_files` keeps the real count when the listing stops at 3,000.
  const capped = listed.length < pull.changedFiles || listed.length > MAX_LISTED_FILES;
  if (capped) {
    notes.push(
      `GitHub listed ${listed.length} of the pull request's ${pull.changedFiles} changed files (its files API stops at ${MAX_LISTED_FILES}); the others were not read.`,
    );
  }
  // A truncated tree is still exact for the paths it lists: only a changed path missing from
  // it (marked unreadable below) makes the change incomplete, so a repository over GitHub's
  // 100,000-entry limit is not incomplete for ever.
  if (baseTree.truncated) notes.push(truncatedTreeNote('base'));
  if (headTree.truncated) notes.push(truncatedTreeNote('head'));
  const plan = planFiles(listed, baseTree, headTree);
  notes.push(...plan.notes);
  let complete = !capped && plan.notes.length === 0;

  const sides = plan.files.flatMap((file) => [file.base, file.head]).filter(isSide);
  const blobs = await readApiBlobs(
    client,
    repository,
    sides.flatMap((side) => wanted(side, maxBytes)),
  );
  const files: ChangedFile[] = [];
  for (const planned of plan.files.sort(byPath)) {
    const base = planned.base && toVersion(planned.base, blobs, maxBytes);
    const head = planned.head && toVersion(planned.head, blobs, maxBytes);
    const path = planned.listed.filename;
    const problems = [base?.problem, head?.problem].filter((problem) => problem !== undefined);
    for (const problem of problems) notes.push(`${path} could not be read: ${problem}.`);
    if (problems.length > 0) complete = false;
    if (problems.length === 0 && looksTruncated(planned, base?.version, head?.version)) {
      notes.push(
        `${path}: GitHub sent no patch and zero line counts, as it does for a diff it truncated; its change could not be verified.`,
      );
      complete = false;
    }
    const tooLarge = [head, base].find(
      (read) => read?.version.kind === 'too-large' && !read.problem,
    );
    if (tooLarge) notes.push(tooLargeNote(tooLarge.version, maxBytes));
    files.push(toChangedFile(planned, base?.version, head?.version));
  }

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
    files,
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

/** The blob to download for a side, if any: symlinks, submodules and big blobs are not. */
function wanted(side: PlannedSide, maxBytes: number): string[] {
  const entry = side.entry;
  if (entry === undefined || side.problem !== undefined) return [];
  if (entry.mode === SYMLINK_MODE || entry.mode === SUBMODULE_MODE) return [];
  return entry.size !== undefined && entry.size > maxBytes ? [] : [entry.sha];
}

/** Classified exactly as git's adapter does, by the same pure `describeBlob`. */
function toVersion(
  side: PlannedSide,
  blobs: ReadonlyMap<string, BlobRead>,
  maxBytes: number,
): VersionRead {
  const { path, entry } = side;
  if (entry === undefined || side.problem !== undefined) {
    const problem = side.problem ?? 'its tree entry is unknown';
    return { version: unreadable(path, entry?.sha ?? '', entry?.mode ?? UNKNOWN_MODE), problem };
  }
  const { mode, sha } = entry;
  if (mode === SUBMODULE_MODE) return { version: submoduleVersion(path, sha) };
  const size = entry.size ?? 0;
  if (mode === SYMLINK_MODE || size > maxBytes) {
    return { version: describeBlob({ path, blobSha: sha, mode, size }) };
  }
  const read = blobs.get(sha);
  if (read === undefined || !read.ok) {
    const problem = read?.problem ?? `blob ${sha} was not read`;
    return { version: unreadable(path, sha, mode), problem };
  }
  return {
    version: describeBlob({ path, blobSha: sha, mode, size: read.bytes.length, bytes: read.bytes }),
  };
}

function unreadable(path: string, blobSha: string, mode: string): FileVersion {
  return { path, blobSha, mode, kind: 'unreadable', size: 0 };
}

/**
 * GitHub drops the patch and reports 0 additions and 0 deletions when a diff is too big
 * (THREATS rows 22 and 24). The same answer is honest when the contents explain it: the same
 * blob on both sides (a pure rename, an executable bit), a binary side, or only empty sides.
 * Anything else is treated as a truncation, even though AUREUS reads the blobs itself: the
 * listing that came with it cannot be trusted to be whole.
 */
function looksTruncated(
  planned: PlannedFile,
  base: FileVersion | undefined,
  head: FileVersion | undefined,
): boolean {
  const { hasPatch, additions, deletions } = planned.listed;
  if (hasPatch || additions !== 0 || deletions !== 0) return false;
  if (base !== undefined && head !== undefined && base.blobSha === head.blobSha) return false;
  const present = [base, head].filter((version) => version !== undefined);
  if (present.some((version) => version.kind === 'binary')) return false;
  return !present.every((version) => version.size === 0);
}

function toChangedFile(
  planned: PlannedFile,
  base: FileVersion | undefined,
  head: FileVersion | undefined,
): ChangedFile {
  const moved = planned.oldPath !== undefined;
  // git scores an unchanged blob under a new name 100 (an exact rename); any other score is
  // git's own heuristic, which GitHub does not report.
  const exact = moved && base !== undefined && head !== undefined && base.blobSha === head.blobSha;
  return {
    status: planned.status,
    path: planned.listed.filename,
    ...(moved ? { oldPath: planned.oldPath } : {}),
    ...(exact ? { similarity: 100 } : {}),
    ...(base ? { base } : {}),
    ...(head ? { head } : {}),
  };
}

/** Worded as git's adapter words it, so both sources give the same notes. */
function tooLargeNote(version: FileVersion, maxBytes: number): string {
  return `${version.path} is ${version.size} bytes, over the ${maxBytes}-byte read limit; it is counted but its contents were not read.`;
}

function truncatedTreeNote(side: 'base' | 'head'): string {
  return `GitHub truncated the ${side} tree listing (over its entry limit); changed files missing from it are marked unreadable.`;
}

function isSide(side: PlannedSide | undefined): side is PlannedSide {
  return side !== undefined;
}

/** Plain code-unit order of the path, as git's adapter sorts: independent of the locale. */
function byPath(a: PlannedFile, b: PlannedFile): number {
  const left = a.listed.filename;
  const right = b.listed.filename;
  return left < right ? -1 : left > right ? 1 : 0;
}
