import { type ChildProcess, execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach } from '@jest/globals';

const BIN = resolve('bin/aureus.js');

export interface ProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `node bin/aureus.js …` (over dist/, see ensureBuilt) in a process of its own, awaited without
 * blocking this one: a run that hangs (a FIFO opened, /dev/zero read to the end) then fails its
 * test by the test timeout instead of stopping the test runner, and is killed after the test.
 * Call at the top of a test file; it returns the runner.
 */
export function useAureusProcesses(): (
  cwd: string,
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
) => Promise<ProcessRun> {
  const running = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
  });
  return (cwd, args, env = {}) =>
    new Promise((done) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          running.delete(child);
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          done({ code, stdout, stderr });
        },
      );
      running.add(child);
    });
}
