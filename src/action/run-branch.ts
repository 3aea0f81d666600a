import * as core from '@actions/core';
import { runGit } from '../git/git-runner.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { AureusError } from '../model/errors.js';
import { escapeControls } from '../report/plain-text.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/** A push to GitHub that takes longer than this has failed; the step says so. */
const PUSH_TIMEOUT_MS = 10 * 60 * 1000;

/** Where the publish job pushes, with the token in each git call's environment only. */
export interface GitRemote {
  readonly url: string;
  readonly options: {
    readonly timeoutMs: number;
    readonly env: Readonly<Record<string, string>>;
  };
}

/**
 * The repository's remote: the token goes in an `http.<server>.extraheader` given in the
 * environment of each git call that talks to GitHub (never `.git/config`, never the command line).
 */
export function gitRemote(
  env: NodeJS.ProcessEnv,
  repository: RepositoryCoordinates,
  token: string,
): GitRemote {
  const server = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '');
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
  return {
    url: `${server}/${repository.owner}/${repository.repo}.git`,
    options: {
      timeoutMs: PUSH_TIMEOUT_MS,
      env: {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: `http.${server}/.extraheader`,
        GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
      },
    },
  };
}

/**
 * Pushes the validated commit to a new branch, never forced: a branch that holds other commits
 * is a failure, not an overwrite, and one that holds this very commit (a re-run of the job) is
 * left as it is.
 */
export async function pushBranch(
  root: string,
  remote: GitRemote,
  dispatch: BuilderDispatch,
  head: string,
): Promise<string> {
  const branch = `aureus/issue-${dispatch.issue}-${dispatch.runId}`;
  const listed = await runGit(
    root,
    ['ls-remote', remote.url, `refs/heads/${branch}`],
    remote.options,
  );
  const there = listed.stdout.toString('utf8').split('\t')[0]?.trim() ?? '';
  if (there === head) return branch;
  if (there !== '')
    throw new AureusError(
      `the branch ${branch} exists already, with other commits than this run's.`,
      'look at that branch; start a new run with /aureus implement to publish another.',
    );
  await runGit(
    root,
    [
      '-c',
      'core.hooksPath=/dev/null',
      'push',
      '--quiet',
      '--no-verify',
      remote.url,
      `${head}:refs/heads/${branch}`,
    ],
    remote.options,
  );
  return branch;
}

/**
 * Where a run stopped for want of budget keeps its work: a ref that no pull request uses, one per
 * stop. A continuation goes on from the kept commit, so a second stop's commit descends from the
 * first's; each has its own ref, and neither push needs force.
 */
export function stoppedRunRef(dispatch: BuilderDispatch, head: string): string {
  return `refs/aureus/runs/${dispatch.runId}/${head.slice(0, 12)}`;
}

/** Keeps a stopped run's validated commit at its own `stoppedRunRef`, never forced. */
export async function keepStoppedWork(
  root: string,
  remote: GitRemote,
  dispatch: BuilderDispatch,
  head: string,
): Promise<string> {
  const ref = stoppedRunRef(dispatch, head);
  await runGit(
    root,
    [
      '-c',
      'core.hooksPath=/dev/null',
      'push',
      '--quiet',
      '--no-verify',
      remote.url,
      `${head}:${ref}`,
    ],
    remote.options,
  );
  return ref;
}

/**
 * Takes back the run's branch when its pull request is not opened: only while it still holds the
 * run's commit (a lease, so nothing another push put there is lost). A branch that cannot be
 * deleted is said in the log; a re-run of the job opens its pull request.
 */
export async function deleteBranch(
  root: string,
  remote: GitRemote,
  branch: string,
  head: string,
): Promise<void> {
  const ref = `refs/heads/${branch}`;
  try {
    await runGit(
      root,
      [
        '-c',
        'core.hooksPath=/dev/null',
        'push',
        '--quiet',
        '--no-verify',
        `--force-with-lease=${ref}:${head}`,
        remote.url,
        `:${ref}`,
      ],
      remote.options,
    );
    core.info(
      `AUREUS builder: the branch ${branch} was deleted, since its pull request was not opened.`,
    );
  } catch (error) {
    core.warning(
      escapeControls(
        `AUREUS builder: the branch ${branch} was pushed but its pull request was not opened, and the branch could not be deleted (${error instanceof Error ? error.message : String(error)}); re-run the publish job to open it, or delete the branch.`,
      ),
    );
  }
}
