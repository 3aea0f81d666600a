import { spawn } from 'node:child_process';

export interface CommandRun {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunCommandOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  /** Most bytes kept of each stream: its head and its tail, the middle counted. */
  readonly maxOutputBytes: number;
}

/**
 * Runs an argument vector without a shell, as the leader of a process group of its own, so a
 * timeout kills everything it started (a child that ignores SIGTERM included: SIGKILL), and
 * so does its end: nothing it left behind keeps running, or keeps its output open.
 */
export function runCommand(
  argv: readonly string[],
  options: RunCommandOptions,
): Promise<CommandRun> {
  const [program, ...args] = argv;
  return new Promise((resolve) => {
    const child = spawn(program ?? '', args, {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const stdout = cappedText(options.maxOutputBytes);
    const stderr = cappedText(options.maxOutputBytes);
    child.stdout.on('data', stdout.add);
    child.stderr.on('data', stderr.add);
    let timedOut = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on('exit', killGroup);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({
        exitCode: null,
        signal: null,
        timedOut: false,
        stdout: '',
        stderr: `the command could not start: ${error.message}`,
      });
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, timedOut, stdout: stdout.text(), stderr: stderr.text() });
    });
  });
}

function cappedText(maxBytes: number): { add: (chunk: Buffer) => void; text: () => string } {
  const half = Math.max(1, Math.floor(maxBytes / 2));
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  let total = 0;
  return {
    add: (chunk) => {
      total += chunk.length;
      if (head.length < half) {
        const take = chunk.subarray(0, half - head.length);
        head = Buffer.concat([head, take]);
        chunk = chunk.subarray(take.length);
      }
      if (chunk.length > 0) tail = Buffer.concat([tail, chunk]).subarray(-half);
    },
    text: () => {
      const omitted = total - head.length - tail.length;
      const middle = omitted > 0 ? `…[${omitted} bytes omitted]…` : '';
      return `${head.toString('utf8')}${middle}${tail.toString('utf8')}`;
    },
  };
}
