import { AureusError } from '../model/errors.js';

/** Longest stderr summary put into a message; the rest is git's business. */
const SUMMARY_LIMIT = 300;

/**
 * Turns a failed git command into an AureusError (exit 2) whose message quotes git's own
 * complaint and whose hint says what usually fixes it. Only git's stderr is quoted, never
 * file contents.
 */
export function explainGitFailure(
  cwd: string,
  args: readonly string[],
  exitCode: number,
  stderr: string,
): AureusError {
  const command = `git ${args[0] ?? ''}`.trim();
  // Outside a repository git diff knows only --no-index: it answers an option of a repository's
  // diff (--cached) with "unknown option" and its usage, which names neither the folder nor why.
  if (args[0] === 'diff' && /^usage: git diff --no-index/m.test(stderr)) {
    return new AureusError(
      `${command} failed (exit ${exitCode}): ${cwd} is not in a git repository.`,
      hintFor('not a git repository', cwd, args),
    );
  }
  const summary = summarizeStderr(stderr);
  const message = `${command} failed (exit ${exitCode})${summary ? `: ${summary}` : '.'}`;
  return new AureusError(message, hintFor(stderr, cwd, args));
}

/** git's fatal/error lines, or its first line when it printed neither, trimmed to one sentence. */
export function summarizeStderr(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('hint:'));
  const serious = lines.filter((line) => /^(fatal|error):/.test(line));
  const chosen = (serious.length > 0 ? serious : lines).slice(0, 2).join(' ');
  return chosen.length > SUMMARY_LIMIT ? `${chosen.slice(0, SUMMARY_LIMIT - 1)}…` : chosen;
}

function hintFor(stderr: string, cwd: string, args: readonly string[]): string {
  if (/not a git repository/i.test(stderr)) {
    return 'run AUREUS inside a git repository, or pass the folder of one.';
  }
  if (/dubious ownership/i.test(stderr)) {
    return `mark the folder as safe for git: git config --global --add safe.directory ${cwd}`;
  }
  if (/must be run in a work tree/i.test(stderr)) {
    return 'staged and working-tree changes need a checkout; use a range or a commit in a bare repository.';
  }
  if (
    /unknown revision|bad revision|ambiguous argument|not a valid object name|invalid object name|bad object|not a tree object/i.test(
      stderr,
    )
  ) {
    return 'check the ref or commit name; if it exists only on the remote, fetch it first (git fetch origin <ref>).';
  }
  if (
    /could not read from remote|unable to access|couldn't find remote ref|no such remote/i.test(
      stderr,
    )
  ) {
    return 'check that the remote is reachable and holds the commit, or fetch it yourself before running AUREUS.';
  }
  return `run "git ${args.join(' ')}" in ${cwd} to see git's full message.`;
}
