import { listTrackedFiles, readWorktreeEdits, type VersionRead } from '../git/index.js';

/** One tracked file of a snapshot: its blob id keys the facts cache. */
export interface SnapshotFile {
  readonly path: string;
  readonly blobSha: string;
  readonly mode: string;
  /** Bytes, when the listing says (a commit's blobs): a source may skip blobs over its limit unread. */
  readonly size?: number;
  /** Already-read contents (files edited in the working tree); others are read by blob id. */
  readonly text?: string;
  /**
   * An edited file that is not text (over the read limit, binary, a link, unreadable and why):
   * git has no blob for it, so its sources answer this instead of asking git.
   */
  readonly unstored?: VersionRead;
}

/**
 * The tracked files as they stand in the working tree: the index's blob ids, replaced by the
 * working tree's for files edited since, without the ones deleted there. Untracked files are
 * not part of the repository yet and stay out.
 */
export async function workingTreeSnapshot(root: string): Promise<SnapshotFile[]> {
  const [tracked, edits] = await Promise.all([listTrackedFiles(root), readWorktreeEdits(root)]);
  const byPath = new Map<string, SnapshotFile>(tracked.map((file) => [file.path, file]));
  for (const { path, head } of edits) {
    if (head === undefined) {
      byPath.delete(path);
      continue;
    }
    const { blobSha, mode, kind, text } = head.version;
    byPath.set(
      path,
      kind === 'text' && text !== undefined
        ? { path, blobSha, mode, text }
        : { path, blobSha, mode, unstored: head },
    );
  }
  return [...byPath.values()];
}

/** The files staged in the index: what the next commit will hold. */
export async function indexSnapshot(root: string): Promise<SnapshotFile[]> {
  return listTrackedFiles(root);
}

/** The tracked files of a commit, read later by blob id; `sizes: false` as listTrackedFiles. */
export async function commitSnapshot(
  root: string,
  ref: string,
  options: { readonly sizes?: boolean } = {},
): Promise<SnapshotFile[]> {
  return listTrackedFiles(root, ref, options);
}

// Here, apart from the analysis (analyze-repository.ts): a check whose sides are kept lists
// its snapshots and never loads the analysis, its parsers or their WebAssembly.

/** Which state of the repository to analyse; the working tree when none is given. */
export type SnapshotSource =
  | { readonly kind: 'worktree' }
  | { readonly kind: 'index' }
  | {
      readonly kind: 'commit';
      readonly ref: string;
      /** false: listed without the blobs' sizes (listTrackedFiles), for a side likely kept. */
      readonly sizes?: boolean;
    }
  | { readonly kind: 'empty' }
  | { readonly kind: 'files'; readonly files: readonly SnapshotFile[] };

/** The files of one state of the repository, each with its blob id. */
export async function readSnapshot(
  root: string,
  source: SnapshotSource,
): Promise<readonly SnapshotFile[]> {
  switch (source.kind) {
    case 'worktree':
      return workingTreeSnapshot(root);
    case 'index':
      return indexSnapshot(root);
    case 'commit':
      return commitSnapshot(root, source.ref, { sizes: source.sizes !== false });
    case 'empty':
      return [];
    case 'files':
      return source.files;
  }
}
