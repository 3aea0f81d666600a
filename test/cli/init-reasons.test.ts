import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

describe('aureus init: the reasons it gives', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('init-reasons');
  });
  afterEach(() => repo.remove());

  it('counts one file and one module in the singular', async () => {
    repo.write('package.json', `${JSON.stringify({ name: 'one-file', type: 'module' })}\n`);
    repo.write('index.js', 'export function one() {\n  return 1;\n}\n');
    repo.commit('start');

    const run = await runCliInProcess(['init', '--dry-run'], repo.dir);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('core_files: 25 # design default; the core has 1 file today');
    expect(run.stdout).toContain('core_modules: 6 # design default; the core has 1 module today');
    expect(run.stdout).not.toMatch(/\b1 (files|modules)\b/);
  });
});
