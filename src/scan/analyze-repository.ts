import type { Policy } from '../model/policy.js';
import {
  analyzeSnapshot,
  type RepositoryAnalysis,
  type SnapshotAnalysisOptions,
} from './analyze-snapshot.js';
import { gitRepositorySource } from './git-repository-source.js';
import {
  commitSnapshot,
  indexSnapshot,
  type SnapshotFile,
  workingTreeSnapshot,
} from './working-tree-snapshot.js';

export type { RepositoryAnalysis } from './analyze-snapshot.js';

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

export interface AnalyzeOptions extends SnapshotAnalysisOptions {
  /** Analyse this commit instead of the working tree (the same as snapshot `commit`). */
  readonly ref?: string | undefined;
  readonly snapshot?: SnapshotSource;
}

/**
 * The whole-repository analysis of the local repository at `root` (`analyzeSnapshot` over git):
 * its working tree, its index, a commit, or nothing at all.
 */
export async function analyzeRepository(
  root: string,
  policy: Policy,
  options: AnalyzeOptions = {},
): Promise<RepositoryAnalysis> {
  const source: SnapshotSource =
    options.snapshot ??
    (options.ref === undefined ? { kind: 'worktree' } : { kind: 'commit', ref: options.ref });
  const snapshot = await readSnapshot(root, source);
  return analyzeSnapshot(gitRepositorySource(root), snapshot, policy, options);
}

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
