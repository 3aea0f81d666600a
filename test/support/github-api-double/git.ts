import { execFileSync } from 'node:child_process';

/** Large PRs produce large diffs; the double must not be the thing that truncates them. */
const MAX_BUFFER = 512 * 1024 * 1024;

/**
 * Runs git (argv only, no shell) in a work tree or a `.git` folder and returns raw stdout.
 * The environment is the test's, so `isolateGit()` applies here too.
 */
export function gitBytes(gitDir: string, args: readonly string[]): Buffer {
  return execFileSync('git', ['-C', gitDir, ...args], {
    env: process.env,
    maxBuffer: MAX_BUFFER,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function gitText(gitDir: string, args: readonly string[]): string {
  return gitBytes(gitDir, args).toString('utf8');
}

/** Like gitText, but undefined instead of an exception when git exits non-zero. */
export function tryGitText(gitDir: string, args: readonly string[]): string | undefined {
  try {
    return gitText(gitDir, args);
  } catch {
    return undefined;
  }
}

/** Splits `-z` output into its records, dropping the empty one after the final NUL. */
export function nulRecords(text: string): string[] {
  const records = text.split('\0');
  if (records.at(-1) === '') records.pop();
  return records;
}
