import { expect, it } from '@jest/globals';
import { newRunId, runBranch, taskSlug } from '../../src/agent/run-identity.js';
import { makeRepo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

it("names the run's branch aureus/<slug>-<id>, a valid ref whatever the task says", async () => {
  const id = newRunId();
  expect(id).toMatch(/^[0-9a-f]{8}$/);
  expect(runBranch('Add a `greet` function!', id)).toBe(`aureus/add-a-greet-function-${id}`);
  expect(taskSlug('../../.git/HEAD ~^:?*[\\ @{')).toBe('git-head');
  expect(taskSlug('日本語だけ')).toBe('task');
  const repo = await makeRepo('run-identity');
  for (const task of ['..lock', 'a/b.lock', ' -- --orphan', 'x'.repeat(500)]) {
    expect(repo.git('check-ref-format', `refs/heads/${runBranch(task, id)}`)).toBe('');
  }
  await repo.remove();
});
