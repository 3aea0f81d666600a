import { type ChildProcess, spawn } from 'node:child_process';
import { AureusError } from '../model/errors.js';
import { explainGitFailure } from './explain-git-failure.js';

/**
 * Options every git call starts with. Output AUREUS parses is read with `-z`, which never
 * quotes; quotepath=off keeps non-ASCII paths readable in the messages that remain.
 */
const GLOBAL_ARGS = ['-c', 'core.quotepath=off'] as const;

export interface GitRunOptions {
  /** Bytes written to git's standard input, which is then closed. */
  readonly input?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 for "not found"). */
  readonly okExitCodes?: readonly number[];
  /** Kills git and fails after this long; for commands that talk to a remote. */
  readonly timeoutMs?: number;
  /** Variables set over AUREUS's own git environment (a temporary GIT_INDEX_FILE, an identity). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Most bytes of standard output kept: past it git is stopped and the output is `truncated`,
   * for a caller that can say it read part of an answer whose size the repository decides.
   */
  readonly maxStdoutBytes?: number;
}

export interface GitOutput {
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly exitCode: number;
  /** Whether git was stopped at maxStdoutBytes: stdout holds that much of its output. */
  readonly truncated?: boolean;
}

/** Keeps the end of a long stderr: git prints the fatal line last. */
const STDERR_LIMIT = 64 * 1024;

/**
 * Runs git with an argument vector, never through a shell, so no path or ref can be read as
 * shell syntax. A non-zero exit that the caller did not expect is an AureusError (exit 2):
 * a failed git command must never look like an empty change.
 */
export async function runGit(
  cwd: string,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<GitOutput> {
  const child = spawnGit(cwd, args, options.input === undefined ? 'ignore' : 'pipe', options.env);
  if (options.input !== undefined && child.stdin) {
    // git may exit before reading all of its input; that shows up as its exit code.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }
  const stdout: Buffer[] = [];
  let stderr = '';
  let size = 0;
  let truncated = false;
  const cap = options.maxStdoutBytes;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (truncated) return;
    if (cap !== undefined && size + chunk.length > cap) {
      stdout.push(chunk.subarray(0, cap - size));
      truncated = true;
      child.kill('SIGKILL');
      return;
    }
    size += chunk.length;
    stdout.push(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_LIMIT);
  });
  const exitCode = await waitForExit(child, args, options.timeoutMs);
  if (truncated) return { stdout: Buffer.concat(stdout), stderr, exitCode, truncated };
  const okExitCodes = options.okExitCodes ?? [0];
  if (!okExitCodes.includes(exitCode)) throw explainGitFailure(cwd, args, exitCode, stderr);
  return { stdout: Buffer.concat(stdout), stderr, exitCode };
}

/** Starts git in `cwd` with AUREUS's fixed options and environment. */
export function spawnGit(
  cwd: string,
  args: readonly string[],
  stdin: 'pipe' | 'ignore',
  env: Readonly<Record<string, string>> = {},
): ChildProcess {
  return spawn('git', [...GLOBAL_ARGS, ...args], {
    cwd,
    env: { ...gitEnvironment(), ...env },
    stdio: [stdin, 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
}

/**
 * The caller's environment, so git's own variables keep working (a pre-commit hook's
 * GIT_INDEX_FILE is what makes "staged" mean what the commit will contain), plus:
 * no credential prompt that would hang a CI job, no optional index lock that would race
 * the user's own git commands, and English messages that explain-git-failure can recognise.
 */
function gitEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
  };
}

/** Resolves with git's exit code; rejects when git cannot start or runs out of time. */
export function waitForExit(
  child: ChildProcess,
  args: readonly string[],
  timeoutMs?: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGTERM');
          }, timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (timer) clearTimeout(timer);
      reject(
        new AureusError(
          `git could not be started (${error.code ?? error.message}).`,
          'install git and make sure it is on the PATH of the process running AUREUS.',
        ),
      );
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (timedOut) {
        reject(
          new AureusError(
            `git ${args[0] ?? ''} did not finish within ${timeoutMs} ms.`,
            'check the network connection to the remote, or fetch the needed history before running AUREUS.',
          ),
        );
        return;
      }
      // A signal (out of memory, killed) is a failure like any other; 128 + 9 mimics a shell.
      resolve(code ?? (signal === null ? 1 : 137));
    });
  });
}
