import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { detectLanguage } from '../analysis/detect-language.js';
import { runGit } from '../git/git-runner.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import type { ReviewVote } from './review-vote.js';
import { linkDependencies } from './run-setup.js';
import type { RunPlace } from './safety/checkpoints.js';
import { runInSandbox } from './safety/child-environment.js';
import type { CommandRun } from './safety/run-command.js';

/**
 * The test-quality vote: a test proves the change only if it fails without it. Each test file
 * the run added or changed runs with the project's test command (its path appended) twice: on
 * the start commit with the run's test files laid over it, in a scratch worktree of the run's
 * own (never the user's checkout), where it must fail; and on the branch as it ends, where it
 * must pass. A test that passes on the start commit too proves nothing and is named.
 */

/**
 * Each test file costs two runs of the test command, each up to the run's test timeout: past
 * this many files the vote would outlast the run, so it requests changes and names the bound.
 */
export const MAX_QUALITY_TEST_FILES = 10;

export interface TestQualitySettings {
  readonly root: string;
  readonly place: RunPlace;
  readonly startCommit: string;
  readonly branch: string;
  readonly policy: Policy;
  readonly alsoSecret: readonly string[];
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

export async function testQualityVote(settings: TestQualitySettings): Promise<ReviewVote> {
  const { policy } = settings;
  const argv = policy.project.stack.test_command;
  if (argv.length === 0)
    return {
      vote: 'not run',
      reasons: ['project.stack.test_command is empty: no test can be run on the start commit.'],
    };
  const isTest = globMatcher(policy.paths.tests);
  const isIgnored = globMatcher(policy.paths.ignore);
  const changed = await changedPaths(settings, 'ACMRTD');
  const tests = (await changedPaths(settings, 'AM')).filter((path) => isTest(path));
  if (tests.length === 0) {
    const sources = changed.filter(
      (path) => !isTest(path) && !isIgnored(path) && detectLanguage(path) !== undefined,
    );
    return sources.length === 0
      ? { vote: 'approve', reasons: ['the change touches no source: no test is needed.'] }
      : {
          vote: 'request-changes',
          reasons: [`no test added or changed, and the change touches ${sources.join(', ')}.`],
        };
  }
  if (tests.length > MAX_QUALITY_TEST_FILES)
    return {
      vote: 'request-changes',
      reasons: [
        `the run added or changed ${tests.length} test files, more than the ${MAX_QUALITY_TEST_FILES} this vote runs one by one on the start commit: not proven.`,
      ],
    };
  const base = join(settings.place.dir, 'test-quality');
  await rm(base, { recursive: true, force: true });
  // The run's commands could write hooks or an fsmonitor command into the repository's git
  // folder (the run's tree is a linked worktree of it): git run here, outside the sandbox and
  // with AUREUS's environment, must start none of them.
  await runGit(settings.root, [
    ...NO_REPOSITORY_COMMANDS,
    'worktree',
    'add',
    '--quiet',
    // A scratch tree an earlier vote left registered but removed is replaced, without pruning
    // the user's other worktrees.
    '--force',
    '--detach',
    base,
    settings.startCommit,
  ]);
  try {
    // The tests on the start commit find the dependencies the run's tree has; without them every
    // test would fail there for want of its runner, and "fails on the start commit" prove nothing.
    await linkDependencies(settings.root, base);
    // Literal pathspecs: a file named `*.test.js` is that file, not a glob over others.
    await runGit(base, [
      ...NO_REPOSITORY_COMMANDS,
      'checkout',
      '--quiet',
      settings.branch,
      '--',
      ...tests.map((path) => `:(literal)${path}`),
    ]);
    const reasons: string[] = [];
    const proven: string[] = [];
    for (const file of tests) {
      const onBase = await runTest(settings, base, file);
      const onHead = await runTest(settings, settings.place.tree, file);
      const command = [...argv, file].join(' ');
      if (onBase.timedOut || onHead.timedOut)
        reasons.push(`${command} timed out (the run's test timeout): not proven.`);
      else if (onBase.exitCode === null || onBase.exitCode === 127)
        reasons.push(
          `${command} could not run on the start commit (${onBase.exitCode === null ? `signal ${String(onBase.signal)}` : 'exit 127, command not found'}): not proven.`,
        );
      else if (onBase.exitCode === 0)
        reasons.push(`${file} passes on the start commit too: it proves nothing of the change.`);
      else if (onHead.exitCode !== 0)
        reasons.push(`${file} fails on the branch (${command} exited ${String(onHead.exitCode)}).`);
      else proven.push(file);
    }
    if (reasons.length > 0) return { vote: 'request-changes', reasons };
    return {
      vote: 'approve',
      reasons: proven.map((file) => `${file} fails on the start commit and passes on the branch.`),
    };
  } finally {
    await runGit(
      settings.root,
      [...NO_REPOSITORY_COMMANDS, 'worktree', 'remove', '--force', base],
      {
        okExitCodes: [0, 128],
      },
    );
  }
}

const NO_REPOSITORY_COMMANDS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

function runTest(settings: TestQualitySettings, cwd: string, file: string): Promise<CommandRun> {
  return runInSandbox([...settings.policy.project.stack.test_command, file], {
    cwd,
    runDir: settings.place.dir,
    alsoSecret: settings.alsoSecret,
    timeoutMs: settings.timeoutMs,
    maxOutputBytes: settings.maxOutputBytes,
  });
}

async function changedPaths(settings: TestQualitySettings, filter: string): Promise<string[]> {
  const diff = await runGit(settings.root, [
    'diff',
    '--name-only',
    '-z',
    '--no-renames',
    `--diff-filter=${filter}`,
    settings.startCommit,
    settings.branch,
  ]);
  return diff.stdout
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '');
}
