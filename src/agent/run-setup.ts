import { lstat, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../git/git-runner.js';
import { errnoCode } from '../memory/errno-code.js';
import { AureusError } from '../model/errors.js';
import { newRunId, runBranch } from './run-identity.js';
import { runDir, writeNote } from './run-memory.js';
import type { RunPlace } from './safety/checkpoints.js';

/**
 * A new run's place: a branch `aureus/<slug>-<id>` from the user's HEAD, checked out in a linked
 * worktree under the repository's git common dir — outside the user's working tree, so the
 * user's own tools never see it and the user's branch, index and files are never touched.
 */

export interface NewRun {
  readonly place: RunPlace;
  /** `.aureus/local/runs/<id>/`: the run's memory and audit. */
  readonly memory: string;
  readonly branch: string;
  readonly startCommit: string;
}

export async function gitText(cwd: string, args: readonly string[]): Promise<string> {
  return (await runGit(cwd, [...args])).stdout.toString('utf8').trim();
}

/** Where the run's tree and private folder live, from the run's id alone (for --resume). */
export async function runPlaceOf(root: string, id: string): Promise<RunPlace> {
  const common = await gitText(root, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const base = join(common, 'aureus', 'runs', id);
  return { id, tree: join(base, 'tree'), dir: join(base, 'private') };
}

export async function createRun(root: string, task: string): Promise<NewRun> {
  const head = await runGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], {
    okExitCodes: [0, 1],
  });
  const startCommit = head.stdout.toString('utf8').trim();
  if (startCommit === '')
    throw new AureusError(
      'the repository has no commit yet: a run starts from HEAD.',
      'commit something first, then run aureus implement again.',
    );
  const id = newRunId();
  const run = await placeRun(root, id, runBranch(task, id), startCommit);
  await writeNote(run.memory, 'goals.md', `# Goal\n\n${task}\n`);
  return run;
}

/**
 * The run's branch checked out at `startCommit` in its own worktree, and its memory folder: a
 * new run's, or the place of a run whose state another process planned (the builder's Act job).
 */
export async function placeRun(
  root: string,
  id: string,
  branch: string,
  startCommit: string,
): Promise<NewRun> {
  const memory = await runDir(root, id);
  const place = await runPlaceOf(root, id);
  await mkdir(place.dir, { recursive: true });
  await runGit(root, ['worktree', 'add', '--quiet', '-b', branch, place.tree, startCommit]);
  await linkDependencies(root, place.tree);
  return { place, memory, branch, startCommit };
}

/**
 * The user's installed dependencies, so the project's tests run in the run's tree: linked only
 * when the user's copy is a real untracked folder and the run's tree ignores the path (so no
 * snapshot or commit of the run ever records the link). The path authority never follows it.
 */
export async function linkDependencies(root: string, tree: string): Promise<void> {
  const source = join(root, 'node_modules');
  const stats = await lstat(source).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined || !stats.isDirectory()) return;
  const tracked = await gitText(root, ['ls-files', '--', 'node_modules']);
  if (tracked !== '') return;
  const ignored = await runGit(tree, ['check-ignore', '--quiet', '--no-index', 'node_modules'], {
    okExitCodes: [0, 1],
  });
  if (ignored.exitCode !== 0) return;
  await symlink(source, join(tree, 'node_modules'), 'dir');
}
