import { listTrackedFiles, readChange } from '../git/index.js';

/** One tracked file of a snapshot: its blob id keys the facts cache. */
export interface SnapshotFile {
  readonly path: string;
  readonly blobSha: string;
  readonly mode: string;
  /** Bytes, when the listing says (a commit's blobs): a source may skip blobs over its limit unread. */
  readonly size?: number;
  /** Already-read contents (files edited in the working tree); others are read by blob id. */
  readonly text?: string;
}

/**
 * The tracked files as they stand in the working tree: the index's blob ids, replaced by the
 * working tree's for files edited since, without the ones deleted there. Untracked files are
 * not part of the repository yet and stay out.
 */
export async function workingTreeSnapshot(root: string): Promise<SnapshotFile[]> {
  const [tracked, edits] = await Promise.all([
    listTrackedFiles(root),
    readChange(root, { kind: 'worktree' }),
  ]);
  const byPath = new Map<string, SnapshotFile>(tracked.map((file) => [file.path, file]));
  for (const file of edits.files) {
    if (file.oldPath !== undefined && file.status === 'renamed') byPath.delete(file.oldPath);
    if (file.head === undefined) {
      byPath.delete(file.path);
      continue;
    }
    const { blobSha, mode, text } = file.head;
    byPath.set(
      file.path,
      text === undefined
        ? { path: file.path, blobSha, mode }
        : { path: file.path, blobSha, mode, text },
    );
  }
  return [...byPath.values()];
}

/** The files staged in the index: what the next commit will hold. */
export async function indexSnapshot(root: string): Promise<SnapshotFile[]> {
  return listTrackedFiles(root);
}

/** The tracked files of a commit, read later by blob id. */
export async function commitSnapshot(root: string, ref: string): Promise<SnapshotFile[]> {
  return listTrackedFiles(root, ref);
}
