import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { AureusError } from '../model/errors.js';

/**
 * The variable every process of a builder run inherits (the agent's, and its commands' through
 * their allow-list): a process that left the run's process group (`setsid`, a double fork)
 * still carries it, and is ended with the rest when the agent exits.
 */
export const RUN_MARKER = 'AUREUS_RUN_MARKER';

export function newRunMarker(): string {
  return randomBytes(16).toString('hex');
}

/** A run that forks faster than it is ended: the sweep gives up, and says so. */
const MAX_SWEEPS = 50;

/**
 * Ends (SIGKILL) every process whose environment carries `marker`, sweeping /proc until a sweep
 * finds none. A process that cleared its own environment is beyond this: the README says so.
 * Answers how many were ended; a run still forking after MAX_SWEEPS fails the step.
 */
export async function killMarkedProcesses(marker: string): Promise<number> {
  const entry = Buffer.from(`${RUN_MARKER}=${marker}\0`);
  let ended = 0;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep += 1) {
    const marked = await markedProcesses(entry);
    if (marked.length === 0) return ended;
    for (const pid of marked) {
      try {
        process.kill(pid, 'SIGKILL');
        ended += 1;
      } catch {
        // Gone already.
      }
    }
  }
  throw new AureusError(
    `processes of the builder's run were still starting after ${MAX_SWEEPS} sweeps to end them.`,
    "look at the commands the run's policy allows (permissions.allowed_commands, project.stack.test_command): one of them forks without end.",
  );
}

async function markedProcesses(entry: Buffer): Promise<number[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const environ = await readFile(`/proc/${name}/environ`).catch(() => null);
    // A killed process stays a zombie until its parent reaps it: its environ reads empty.
    if (
      environ !== null &&
      (environ.indexOf(entry) === 0 || environ.includes(Buffer.concat([Buffer.from([0]), entry])))
    )
      found.push(Number(name));
  }
  return found;
}
