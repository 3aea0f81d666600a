import { runGit } from './git-runner.js';

/**
 * Whether `patch` (a unified diff with a/ and b/ prefixes) applies cleanly to the working tree
 * of `root`, and if not, git's own words for why. Nothing is written.
 */
export async function patchApplies(
  root: string,
  patch: string,
): Promise<{ readonly applies: boolean; readonly reason: string }> {
  const { exitCode, stderr } = await runGit(
    root,
    ['apply', '--check', '--whitespace=nowarn', '-'],
    {
      input: patch,
      okExitCodes: [0, 1],
    },
  );
  return { applies: exitCode === 0, reason: stderr.trim() };
}
