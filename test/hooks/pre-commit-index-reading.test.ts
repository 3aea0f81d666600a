import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  aureus,
  makeNodeRepo,
  type NodeRepo,
  OVER_BUDGET,
  SMALL_CHANGE,
  useHookTestEnvironment,
} from './hook-fixture.js';

/**
 * The pre-commit hook reads the index file itself where it can (src/git/index-listing.ts). A
 * relative GIT_INDEX_FILE naming the same file makes it ask `git ls-files` instead: the
 * verdicts, printed and recorded, must be the same either way, from cold caches and warm ones.
 */
describe('aureus hook pre-commit: the index read in-process judges as git ls-files does', () => {
  let repo: NodeRepo;
  let caches: string;
  useHookTestEnvironment();
  beforeEach(async () => {
    repo = await makeNodeRepo('index-reading');
    caches = mkdtempSync(join(tmpdir(), 'aureus-index-reading-caches-'));
  });
  afterEach(async () => {
    rmSync(caches, { recursive: true, force: true });
    await repo.remove();
  });

  const hook = (env: Record<string, string>) =>
    aureus(repo.dir, ['hook', 'pre-commit'], { AUREUS_CACHE_DIR: caches, ...env });
  const byGit = { GIT_INDEX_FILE: '.git/index' };

  it('prints the same verdict for a change within budget and one over it, cold and warm', () => {
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    const [inProcess, listedByGit] = [hook({}), hook(byGit)];
    expect(inProcess.code).toBe(0);
    expect(inProcess.stdout).toMatch(/^AUREUS: (PASS|WARN) — /);
    expect(listedByGit).toEqual(inProcess);

    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    // Git's listing first this time: each keeps the head side the other then finds.
    const [gitFirst, thenInProcess, again] = [hook(byGit), hook({}), hook({})];
    expect(gitFirst.code).toBe(1);
    expect(gitFirst.stdout).toMatch(/^AUREUS: BLOCK — \d+ points, budget 10 /);
    expect(thenInProcess).toEqual(gitFirst);
    expect(again).toEqual(gitFirst);
  });
});
