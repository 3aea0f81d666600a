import type { SnapshotFile } from './working-tree-snapshot.js';

/** Whether two listings of a path hold the same bytes (an edit read from disk has its blob id too). */
export function sameContents(head: SnapshotFile, base: SnapshotFile | undefined): boolean {
  return (
    base !== undefined &&
    head.unstored === undefined &&
    base.unstored === undefined &&
    head.mode === base.mode &&
    head.blobSha === base.blobSha
  );
}

/**
 * Whether two snapshots hold the same files with the same bytes: their analyses are then equal,
 * so a check of a change that changes nothing analyses the repository once, not twice.
 */
export function sameSnapshot(
  head: readonly SnapshotFile[],
  base: readonly SnapshotFile[],
): boolean {
  if (head.length !== base.length) return false;
  const byPath = new Map(base.map((file) => [file.path, file]));
  // Each base file matched once: a path listed twice (stages of a conflict) is no match.
  return (
    byPath.size === base.length &&
    new Set(head.map((file) => file.path)).size === head.length &&
    head.every((file) => sameContents(file, byPath.get(file.path)))
  );
}
