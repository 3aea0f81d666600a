import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RunPlace } from '../../src/agent/safety/checkpoints.js';
import { testQualityVote } from '../../src/agent/test-quality.js';
import type { Policy } from '../../src/model/policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { makeRepo, type Repo, repoAt } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

let repo: Repo & { remove(): Promise<void> };
let run: RunPlace;
let startCommit: string;
const marker = () => join(repo.dir, 'hook-ran');

/** `node <test file>`: the test command a project without a runner would have. */
function nodeTests(): Policy {
  const policy = defaultPolicy();
  return {
    ...policy,
    project: { ...policy.project, stack: { ...policy.project.stack, test_command: ['node'] } },
  };
}

beforeAll(async () => {
  repo = await makeRepo('test-quality');
  repo.write('src/greet.js', 'module.exports = () => "hi";\n');
  repo.commit('base');
  startCommit = repo.git('rev-parse', 'HEAD').trim();
  const dir = join(repo.dir, '.git', 'aureus', 'runs', 'q1');
  mkdirSync(dir, { recursive: true });
  repo.git('worktree', 'add', '--quiet', '-b', 'aureus/task-q1', join(dir, 'tree'), 'HEAD');
  run = { id: 'q1', tree: join(dir, 'tree'), dir };
  const tree = repoAt(run.tree);
  tree.write('src/shout.js', 'module.exports = (s) => s.toUpperCase();\n');
  tree.write(
    'test/shout.test.js',
    "const shout = require('../src/shout.js');\nif (shout('a') !== 'A') process.exit(1);\n",
  );
  tree.commit('shout');
  // What a command of the run could leave in the repository's git folder, which the run's
  // linked worktree shares: a hook git would start, with AUREUS's environment, outside any sandbox.
  const hook = join(repo.dir, '.git', 'hooks', 'post-checkout');
  writeFileSync(hook, `#!/bin/sh\necho ran > '${marker()}'\n`);
  chmodSync(hook, 0o755);
});

afterAll(() => repo.remove());

describe('the test-quality vote', () => {
  it('proves a test that fails on the start commit and passes on the branch, and starts no hook of the repository', async () => {
    const vote = await testQualityVote({
      root: repo.dir,
      place: run,
      startCommit,
      branch: 'aureus/task-q1',
      policy: nodeTests(),
      alsoSecret: [],
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024,
    });
    expect(vote).toEqual({
      vote: 'approve',
      reasons: ['test/shout.test.js fails on the start commit and passes on the branch.'],
    });
    expect(existsSync(marker())).toBe(false);
  });

  it('proves nothing when the test command cannot run on the start commit', async () => {
    const policy = nodeTests();
    const missing: Policy = {
      ...policy,
      project: {
        ...policy.project,
        stack: { ...policy.project.stack, test_command: ['sh', '-c', 'exit 127', 'sh'] },
      },
    };
    const vote = await testQualityVote({
      root: repo.dir,
      place: run,
      startCommit,
      branch: 'aureus/task-q1',
      policy: missing,
      alsoSecret: [],
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024,
    });
    expect(vote.vote).toBe('request-changes');
    expect(vote.reasons[0]).toContain('could not run on the start commit (exit 127');
  });
});
