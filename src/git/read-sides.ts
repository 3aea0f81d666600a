import { realpath } from 'node:fs/promises';
import type { FileVersion } from '../model/change.js';
import { describeBlob, SUBMODULE_MODE, submoduleVersion } from './blob-version.js';
import { readObjects, type StoredObject } from './cat-file-batch.js';
import type { GitPath } from './git-path.js';
import { mapLimited } from './map-limited.js';
import { readWorktreeFile, type WorktreeRead, type WorktreeRoot } from './read-worktree-file.js';
import type { Repository } from './repository.js';

/** Open working-tree files at once: overlaps disk waits without exhausting descriptors. */
const WORKTREE_READS_IN_FLIGHT = 16;

/** One side (base or head) of a diff entry and where its bytes come from. */
export interface Side {
  readonly path: GitPath;
  readonly mode: string;
  readonly sha: string;
  /** The working tree, because git has not hashed it (its id is all zeros). */
  readonly fromWorkTree: boolean;
}

export interface VersionRead {
  readonly version: FileVersion;
  /** Why the version is a placeholder rather than what the file holds. */
  readonly problem?: string;
}

/** The read limit of a side, by its path: a blob over it is `too-large`, its bytes not read. */
export type ReadLimit = (path: string) => number;

/**
 * Reads every side: all stored blobs through ONE `git cat-file --batch` process, working-tree
 * files (only those git has not hashed) from disk, at the same time. Each side is read up to
 * its own path's limit; a blob two paths share is read once, up to the larger.
 */
export async function readSides(
  repository: Repository,
  sides: readonly Side[],
  limitOf: ReadLimit,
): Promise<Map<Side, VersionRead>> {
  const limits = new Map<string, number>();
  for (const side of sides.filter(isStored)) {
    limits.set(side.sha, Math.max(limits.get(side.sha) ?? 0, limitOf(side.path.text)));
  }
  const [objects, worktree] = await Promise.all([
    readObjects(repository.cwd, [...limits.keys()], (id) => limits.get(id) ?? 0),
    readWorktreeSides(repository, sides, limitOf),
  ]);
  return new Map(sides.map((side) => [side, toVersion(side, objects, worktree, limitOf)]));
}

export function isZeroId(sha: string): boolean {
  return /^0+$/.test(sha);
}

function toVersion(
  side: Side,
  objects: ReadonlyMap<string, StoredObject>,
  worktree: ReadonlyMap<Side, WorktreeRead>,
  limitOf: ReadLimit,
): VersionRead {
  const path = side.path.text;
  if (side.fromWorkTree) {
    const read = worktree.get(side);
    if (read === undefined) return unreadable(side, 'it was not read');
    if (!read.ok) return unreadable(side, read.reason);
    if (read.mode === SUBMODULE_MODE) return { version: submoduleVersion(path, read.blobSha) };
    const { mode, blobSha, size, bytes } = read;
    return { version: describeBlob({ path, mode, blobSha, size, ...(bytes ? { bytes } : {}) }) };
  }
  if (side.mode === SUBMODULE_MODE && !isZeroId(side.sha)) {
    return { version: submoduleVersion(path, side.sha) };
  }
  const object = objects.get(side.sha);
  if (!object?.found) return unreadable(side, `git has no object ${side.sha} for it`);
  if (object.type !== 'blob') return unreadable(side, `object ${side.sha} is a ${object.type}`);
  const { size } = object;
  // Read up to a larger limit for another path of the same blob: still too large for this one.
  const bytes = size <= limitOf(path) ? object.bytes : undefined;
  return {
    version: describeBlob({
      path,
      blobSha: side.sha,
      mode: side.mode,
      size,
      ...(bytes ? { bytes } : {}),
    }),
  };
}

/**
 * A version whose contents are unknown: Change.complete is false and a note names the file,
 * so the verdict is incomplete whatever pricing makes of it.
 */
function unreadable(side: Side, problem: string): VersionRead {
  const { path, mode, sha } = side;
  return { version: { path: path.text, blobSha: sha, mode, kind: 'unreadable', size: 0 }, problem };
}

async function readWorktreeSides(
  repository: Repository,
  sides: readonly Side[],
  limitOf: ReadLimit,
): Promise<Map<Side, WorktreeRead>> {
  const wanted = sides.filter((side) => side.fromWorkTree);
  const reads = new Map<Side, WorktreeRead>();
  if (wanted.length === 0 || repository.workTree === undefined) return reads;
  const realPath = await realpath(repository.workTree);
  const { objectFormat } = repository;
  const results = await mapLimited(wanted, WORKTREE_READS_IN_FLIGHT, (side) => {
    const root: WorktreeRoot = { realPath, objectFormat, maxBytes: limitOf(side.path.text) };
    return readWorktreeFile(root, side.path, side.mode);
  });
  wanted.forEach((side, index) => {
    const result = results[index];
    if (result) reads.set(side, result);
  });
  return reads;
}

/** Sides with a stored object to ask git for (submodules point at commits, not blobs). */
function isStored(side: Side): boolean {
  return !side.fromWorkTree && side.mode !== SUBMODULE_MODE && !isZeroId(side.sha);
}
