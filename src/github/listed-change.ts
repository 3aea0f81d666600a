import { readLimitOf, tooLargeNote } from '../git/blob-limit.js';
import type { ChangedFile, FileVersion } from '../model/change.js';
import {
  type ApiBlobVersion,
  apiBlobVersion,
  blobToDownload,
  unreadableVersion,
} from './api-blob-version.js';
import { type BlobRead, readApiBlobs } from './api-blobs.js';
import type { ApiTree } from './api-trees.js';
import type { GitHubClient } from './github-client.js';
import type { ListedFile } from './pull-request-files.js';
import {
  type PlanListing,
  type PlannedFile,
  type PlannedSide,
  planFiles,
  UNKNOWN_MODE,
} from './pull-request-plan.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** What GitHub listed as changed between two trees, and the trees themselves. */
export interface ListedDiff {
  /** GitHub's `diff-entry` list (a pull request's files, or a compare's). */
  readonly listed: readonly ListedFile[];
  /** The tree the diff starts from: the merge base. */
  readonly baseTree: ApiTree;
  readonly headTree: ApiTree;
  /** Names the listing in a note when it disagrees with the head tree. */
  readonly listing?: PlanListing;
}

/** The files of a Change, with what a reader must know of them. */
export interface ListedChange {
  /** In plain code-unit order of the path, as git's adapter sorts. */
  readonly files: ChangedFile[];
  readonly notes: string[];
  /**
   * False when a listed file could not be interpreted or read, or its diff looks truncated.
   * Whether the listing itself is whole is the caller's to judge: each API caps it its own way.
   */
  readonly complete: boolean;
}

/**
 * The files of a Change from GitHub's listing and the two trees: each listed file is located
 * in the trees (modes, sizes, blob ids), and one git.getBlob is made per distinct readable blob,
 * at most 8 at a time (never for symlinks, submodules or blobs over their read limit: `maxBytes`,
 * or more for a lockfile AUREUS reads, as readLimitOf says). Blobs are
 * classified exactly as git's adapter classifies them, and the notes are worded as its notes.
 *
 * Fails closed: a file GitHub lists in a way AUREUS cannot interpret, a changed path missing
 * from a truncated tree, a blob that cannot be read, and a file with no patch and zero counts
 * that its contents do not explain each make it incomplete, with a note.
 */
export async function readListedChange(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  diff: ListedDiff,
  maxBytes: number,
): Promise<ListedChange> {
  const notes: string[] = [];
  // A truncated tree is still exact for the paths it lists: only a changed path missing from
  // it (marked unreadable below) makes the change incomplete, so a repository over GitHub's
  // 100,000-entry limit is not incomplete for ever.
  if (diff.baseTree.truncated) notes.push(truncatedTreeNote('base'));
  if (diff.headTree.truncated) notes.push(truncatedTreeNote('head'));
  const plan = planFiles(diff.listed, diff.baseTree, diff.headTree, diff.listing);
  notes.push(...plan.notes);
  let complete = plan.notes.length === 0;

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
    if (tooLarge) {
      notes.push(tooLargeNote(tooLarge.version, readLimitOf(tooLarge.version.path, maxBytes)));
    }
    files.push(toChangedFile(planned, base?.version, head?.version));
  }
  return { files, notes, complete };
}

/** The blob to download for a side, if any: symlinks, submodules and big blobs are not. */
function wanted(side: PlannedSide, maxBytes: number): string[] {
  const entry = side.entry;
  if (entry === undefined || side.problem !== undefined) return [];
  const sha = blobToDownload(entry, readLimitOf(side.path, maxBytes));
  return sha === undefined ? [] : [sha];
}

function toVersion(
  side: PlannedSide,
  blobs: ReadonlyMap<string, BlobRead>,
  maxBytes: number,
): ApiBlobVersion {
  const { path, entry } = side;
  if (entry === undefined || side.problem !== undefined) {
    const problem = side.problem ?? 'its tree entry is unknown';
    const version = unreadableVersion(path, entry?.sha ?? '', entry?.mode ?? UNKNOWN_MODE);
    return { version, problem };
  }
  return apiBlobVersion(path, entry, blobs, readLimitOf(path, maxBytes));
}

/**
 * GitHub drops the patch and reports 0 additions and 0 deletions when a diff is too big
 * (THREATS rows 22 and 24). The same answer is honest when the contents explain it: the same
 * blob on both sides (a pure rename, an executable bit), a side git calls binary (AUREUS may
 * still read it as source: FileVersion `binaryToGit`), or only empty sides.
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
  if (present.some((version) => version.kind === 'binary' || version.binaryToGit)) return false;
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
