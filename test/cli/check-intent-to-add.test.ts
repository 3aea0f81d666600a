import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/**
 * `git add -N` records a path in the index without storing what it holds: the working tree
 * has the file, git's object store has not. A check of the working tree reads it from the disk.
 */
describe('a file added with git add -N (intent to add)', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('intent-to-add');
    repo.write('src/app.ts', 'export const app = 1;\n');
    repo.commit('base');
    repo.write('src/new.ts', 'export const x = 1;\nexport const y = 2;\n');
    repo.git('add', '-N', 'src/new.ts');
  });
  afterEach(() => repo.remove());

  it('is read from the working tree by a check of the working tree, and priced', async () => {
    const run = await runCliInProcess(['check', '--format', 'json'], repo.dir);
    const report = JSON.parse(run.stdout);
    expect(report.incomplete ?? []).toEqual([]);
    expect(JSON.stringify(report)).not.toMatch(/git has no object/);
    expect(report.costItems).toContainEqual(
      expect.objectContaining({ category: 'loc', path: 'src/new.ts', detail: 'adds 2 code lines' }),
    );
    expect(report.verdict).toBe('pass');
    expect(run.code).toBe(0);
  });
});
