import type { Policy } from '../model/policy.js';
import {
  analyzeSnapshot,
  type RepositoryAnalysis,
  type SnapshotAnalysisOptions,
} from './analyze-snapshot.js';
import { gitRepositorySource } from './git-repository-source.js';
import { readSnapshot, type SnapshotSource } from './working-tree-snapshot.js';

export type { RepositoryAnalysis } from './analyze-snapshot.js';
export { readSnapshot, type SnapshotSource } from './working-tree-snapshot.js';

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
