import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../git/git-runner.js';
import { openRepository } from '../git/repository.js';
import { errnoCode } from '../memory/errno-code.js';

/**
 * What the commit hooks ask git about the commit being made, each in one cheap call (or none)
 * before any analysis is loaded. None of them writes the index: git runs with GIT_OPTIONAL_LOCKS=0 and the
 * hook's own GIT_INDEX_FILE (the temporary index of `git commit -a` or `git commit <paths>`).
 */

/** Whether the index differs from HEAD (from the empty tree before the first commit). */
export async function hasStagedChanges(root: string): Promise<boolean> {
  const diff = await runGit(
    root,
    ['diff', '--cached', '--quiet', '--ignore-submodules=dirty', '--no-ext-diff', '--no-textconv'],
    { okExitCodes: [0, 1] },
  );
  return diff.exitCode === 1;
}

/**
 * Whether a merge is being concluded: its staged change is the whole merged branch, whose commits
 * were checked where they were made (and CI checks the result), so the hooks leave it alone.
 * As git commit itself decides: MERGE_HEAD is in this worktree's git folder. A branch or tag
 * that happens to be named MERGE_HEAD is no merge, and no git process is started: the folder is
 * known from the repository the check opens anyway.
 */
export async function isMergeInProgress(root: string): Promise<boolean> {
  const { gitDir } = await openRepository(root);
  try {
    await lstat(join(gitDir, 'MERGE_HEAD'));
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return false;
    throw error;
  }
}

/** HEAD's commit id, or `unborn` before the first commit. */
export async function headCommit(root: string): Promise<string> {
  const head = await runGit(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], {
    okExitCodes: [0, 1],
  });
  return head.exitCode === 0 ? head.stdout.toString('utf8').trim() : 'unborn';
}

/** The trailer that lets a blocked commit through, in the commit message. */
export const OVERRIDE_TRAILER = 'Aureus-Override';

/**
 * The reason of the message's `Aureus-Override:` trailer, or null. git's own trailer parser
 * decides what a trailer is (the last paragraph, comments left out), so a line in the middle
 * of the body does not count; the last such trailer wins.
 */
export async function overrideTrailer(root: string, messageFile: string): Promise<string | null> {
  const parsed = await runGit(root, ['interpret-trailers', '--parse', '--', messageFile]);
  const key = `${OVERRIDE_TRAILER.toLowerCase()}:`;
  const reasons = parsed.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line.toLowerCase().startsWith(key))
    .map((line) => line.slice(key.length).trim());
  return reasons.at(-1) ?? null;
}
