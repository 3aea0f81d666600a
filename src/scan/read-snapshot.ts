import {
  commitSnapshot,
  indexSnapshot,
  type SnapshotFile,
  workingTreeSnapshot,
} from './working-tree-snapshot.js';

// Apart from the analysis (analyze-repository.ts): a check whose sides are kept lists its
// snapshots and never loads the analysis, its parsers or their WebAssembly.

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
