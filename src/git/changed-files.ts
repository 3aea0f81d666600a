import type { ChangedFile, FileStatus, FileVersion } from '../model/change.js';
import { readLimitOf, tooLargeNote } from './blob-limit.js';
import type { DiffEntry } from './diff-entries.js';
import type { GitPath } from './git-path.js';
import { readSides, type Side } from './read-sides.js';
import type { Repository } from './repository.js';

const STATUS_BY_LETTER: Readonly<Record<string, FileStatus>> = {
  A: 'added',
  C: 'copied',
  D: 'deleted',
  M: 'modified',
  R: 'renamed',
  T: 'type-changed',
};

export interface FilesRead {
  readonly files: ChangedFile[];
  /** One sentence per fact a reader should know: unmerged entries first, then by path. */
  readonly notes: string[];
  /** False when some version could not be read. */
  readonly complete: boolean;
}

interface Planned {
  readonly entry: DiffEntry;
  readonly status: FileStatus;
  readonly base: Side | undefined;
  readonly head: Side | undefined;
}

/**
 * Turns diff entries into ChangedFiles, sorted by path, with both versions read and a note
 * for everything a reader should know: unmerged or unknown entries, unreadable versions
 * (which make the change incomplete), blobs over their read limit (readLimitOf: `maxBytes`, more
 * for a lockfile AUREUS reads), names that are not UTF-8.
 */
export async function readChangedFiles(
  repository: Repository,
  entries: readonly DiffEntry[],
  headIsWorkTree: boolean,
  maxBytes: number,
): Promise<FilesRead> {
  const notes: string[] = [];
  let complete = true;
  const planned: Planned[] = [];
  for (const entry of entries) {
    const status = STATUS_BY_LETTER[entry.letter];
    if (status === undefined) {
      notes.push(unknownStatusNote(entry));
      complete = false;
      continue;
    }
    planned.push(planEntry(entry, status, headIsWorkTree));
  }
  const limitOf = (path: string) => readLimitOf(path, maxBytes);
  const versions = await readSides(
    repository,
    planned.flatMap((plan) => [plan.base, plan.head]).filter(isSide),
    limitOf,
  );
  const files: ChangedFile[] = [];
  for (const plan of planned.sort(byPath)) {
    const path = plan.entry.dstPath;
    const base = plan.base && versions.get(plan.base);
    const head = plan.head && versions.get(plan.head);
    const problems = [base?.problem, head?.problem].filter((problem) => problem !== undefined);
    for (const problem of problems) notes.push(`${path.text} could not be read: ${problem}.`);
    if (problems.length > 0) complete = false;
    const tooLarge = [head, base].find(
      (read) => read?.version.kind === 'too-large' && !read.problem,
    );
    if (tooLarge) notes.push(tooLargeNote(tooLarge.version, limitOf(tooLarge.version.path)));
    if (!path.validUtf8 || !plan.entry.srcPath.validUtf8) notes.push(invalidNameNote(path));
    files.push(toChangedFile(plan, base?.version, head?.version));
  }
  return { files, notes, complete };
}

function planEntry(entry: DiffEntry, status: FileStatus, headIsWorkTree: boolean): Planned {
  const base =
    status === 'added'
      ? undefined
      : { path: entry.srcPath, mode: entry.srcMode, sha: entry.srcSha, fromWorkTree: false };
  const head =
    status === 'deleted'
      ? undefined
      : {
          path: entry.dstPath,
          mode: entry.dstMode,
          sha: entry.dstSha,
          // Always the disk for the working tree: an intent-to-add file (`git add -N`) comes
          // with the id of what it holds, which git has not stored.
          fromWorkTree: headIsWorkTree,
        };
  return { entry, status, base, head };
}

function toChangedFile(
  plan: Planned,
  base: FileVersion | undefined,
  head: FileVersion | undefined,
): ChangedFile {
  const { entry, status } = plan;
  const moved = status === 'renamed' || status === 'copied';
  return {
    status,
    // For a deletion git writes one path, which is both srcPath and dstPath.
    path: entry.dstPath.text,
    ...(moved ? { oldPath: entry.srcPath.text } : {}),
    ...(moved && entry.score !== undefined ? { similarity: entry.score } : {}),
    ...(base ? { base } : {}),
    ...(head ? { head } : {}),
  };
}

function invalidNameNote(path: GitPath): string {
  return `${path.text} has a name that is not valid UTF-8; bytes outside UTF-8 are shown as \\xHH.`;
}

function unknownStatusNote(entry: DiffEntry): string {
  if (entry.letter === 'U') {
    return `${entry.dstPath.text} is unmerged (a merge is in progress), so its staged version is unknown.`;
  }
  return `${entry.dstPath.text} has git status ${entry.letter}, which AUREUS cannot interpret.`;
}

function isSide(side: Side | undefined): side is Side {
  return side !== undefined;
}

/** Plain code-unit order of `ChangedFile.path`: stable and independent of the locale. */
function byPath(a: Planned, b: Planned): number {
  const left = a.entry.dstPath.text;
  const right = b.entry.dstPath.text;
  return left < right ? -1 : left > right ? 1 : 0;
}
