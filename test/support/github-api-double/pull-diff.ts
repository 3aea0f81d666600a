import { type DiffFile, diffFiles, mergeBase } from './diff.js';
import type { PullRequest, RepositoryState } from './state.js';

/**
 * What GitHub shows as a pull request's changes: the diff from the merge base of base and head
 * to head (the three-dot diff), so base-branch commits made after the branch point do not count.
 */
export function pullDiff(repo: RepositoryState, pull: PullRequest): readonly DiffFile[] {
  const gitDir = repo.gitDir;
  if (gitDir === undefined) return [];
  const base = mergeBase(gitDir, pull.baseSha, pull.headSha) ?? pull.baseSha;
  return diffFiles(gitDir, base, pull.headSha);
}
