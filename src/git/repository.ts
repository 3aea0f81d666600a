import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AureusError } from '../model/errors.js';
import { explainGitFailure } from './explain-git-failure.js';
import { runGit } from './git-runner.js';

export type ObjectFormat = 'sha1' | 'sha256';

/** What the rest of the adapter needs to know about a repository, learnt once per call. */
export interface Repository {
  /** Where git runs: the top of the working tree, or the git folder of a bare repository. */
  readonly cwd: string;
  /** Top of the working tree; undefined in a bare repository. */
  readonly workTree: string | undefined;
  readonly shallow: boolean;
  readonly objectFormat: ObjectFormat;
  /** The empty tree's id, what a change with no base commit is compared with. */
  readonly emptyTree: string;
  /** This worktree's own git folder (absolute): where AUREUS keeps what the checkout must not set. */
  readonly gitDir: string;
}

const EMPTY_TREE: Record<ObjectFormat, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/**
 * Repositories already opened by this process, by folder. What is cached never changes for a
 * repository (bare or not, its top, its object format); a shallow one is asked again each time,
 * since a fetch can deepen it. A check opens the same repository four times or so, and each
 * opening is a git process: on a pre-commit hook that adds up.
 */
const opened = new Map<string, Repository>();
/** Openings under way: callers that start together (listing and diffing at once) share one. */
const opening = new Map<string, Promise<Repository>>();

/**
 * Opens the repository at (or above) `repoDir`. Not a repository, a dubious-ownership refusal
 * or a missing folder are AureusErrors (exit 2), so no caller can mistake them for "no change".
 */
export async function openRepository(repoDir: string): Promise<Repository> {
  const folder = resolve(repoDir);
  const known = opened.get(folder);
  if (known !== undefined) return known;
  const pending = opening.get(folder);
  if (pending !== undefined) return pending;
  const inspecting = inspectRepository(folder)
    .then((repository) => {
      if (!repository.shallow) opened.set(folder, repository);
      return repository;
    })
    .finally(() => opening.delete(folder));
  opening.set(folder, inspecting);
  return inspecting;
}

async function inspectRepository(folder: string): Promise<Repository> {
  const isFolder = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) {
    throw new AureusError(
      `${folder} is not a folder, so it cannot hold a git repository.`,
      'pass the folder of a git repository.',
    );
  }
  // One process: git prints each answer in turn, and only --show-toplevel fails (exit 128)
  // where there is no working tree (a bare repository, inside the .git folder).
  const QUESTIONS = [
    '--is-bare-repository',
    '--is-shallow-repository',
    '--show-object-format',
    '--absolute-git-dir',
  ];
  const facts = await runGit(folder, ['rev-parse', ...QUESTIONS, '--show-toplevel'], {
    okExitCodes: [0, 128],
  });
  const [bare, shallow, format, ...rest] = facts.stdout.toString('utf8').split('\n');
  // The rest is the git folder, then the top folder: either name may hold newlines of its own.
  const answered = rest.join('\n').replace(/\n$/, '');
  const split =
    facts.exitCode !== 0 || bare === 'true'
      ? { gitDir: answered, top: '' }
      : await splitFolders(folder, answered);
  const { gitDir, top } = split;
  if (format === undefined || format === '' || gitDir === '') {
    // Not a repository, or one git refuses: nothing was answered, and git's message says why.
    throw explainGitFailure(folder, ['rev-parse', ...QUESTIONS], facts.exitCode, facts.stderr);
  }
  const objectFormat: ObjectFormat = format === 'sha256' ? 'sha256' : 'sha1';
  const workTree = bare === 'true' || facts.exitCode !== 0 || top === '' ? undefined : top;
  return {
    cwd: workTree ?? folder,
    workTree,
    shallow: shallow === 'true',
    objectFormat,
    emptyTree: EMPTY_TREE[objectFormat],
    gitDir,
  };
}

/**
 * The git folder and the top folder from `<git dir>\n<top>`. With no newline in either name the
 * split is plain; otherwise the git folder is `<top>/.git` for most clones, and only a linked
 * worktree with a newline in its path costs a second question.
 */
async function splitFolders(
  folder: string,
  answered: string,
): Promise<{ gitDir: string; top: string }> {
  const breaks = [...answered.matchAll(/\n/g)].map((match) => match.index);
  if (breaks.length === 1) {
    const at = breaks[0] ?? 0;
    return { gitDir: answered.slice(0, at), top: answered.slice(at + 1) };
  }
  for (const at of breaks) {
    const gitDir = answered.slice(0, at);
    const top = answered.slice(at + 1);
    if (gitDir === `${top}/.git`) return { gitDir, top };
  }
  const asked = await runGit(folder, ['rev-parse', '--absolute-git-dir']);
  const gitDir = asked.stdout.toString('utf8').replace(/\n$/, '');
  return { gitDir, top: answered.slice(gitDir.length + 1) };
}

/** Refuses staged and working-tree reads where there is no working tree. */
export function requireWorkTree(repository: Repository, what: string): string {
  if (repository.workTree === undefined) {
    throw new AureusError(
      `${repository.cwd} has no working tree, so there are no ${what} changes to read.`,
      'run AUREUS in a checkout, or ask for a commit or a range instead.',
    );
  }
  return repository.workTree;
}
