import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { sameSnapshot } from '../../src/scan/same-snapshot.js';
import {
  commitSnapshot,
  indexSnapshot,
  workingTreeSnapshot,
} from '../../src/scan/working-tree-snapshot.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

describe('sameSnapshot', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('same-snapshot');
    repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    repo.write('src/b.ts', 'export const b = 1;\n');
    repo.commit('fixture');
  });
  afterEach(() => repo.remove());

  const headAndWorktree = async () =>
    [await workingTreeSnapshot(repo.dir), await commitSnapshot(repo.dir, 'HEAD')] as const;

  it('holds for a clean working tree and for an edit written back as it was', async () => {
    expect(sameSnapshot(...(await headAndWorktree()))).toBe(true);
    repo.write('src/b.ts', 'export const b = 2;\n');
    repo.write('src/b.ts', 'export const b = 1;\n');
    expect(sameSnapshot(...(await headAndWorktree()))).toBe(true);
  });

  it('fails for an edit, a new mode, a deletion, an addition and a staged edit', async () => {
    repo.write('src/b.ts', 'export const b = 2;\n');
    expect(sameSnapshot(...(await headAndWorktree()))).toBe(false);
    repo.git('checkout', '--', 'src/b.ts');
    chmodSync(join(repo.dir, 'src/b.ts'), 0o755);
    expect(sameSnapshot(...(await headAndWorktree()))).toBe(false);
    chmodSync(join(repo.dir, 'src/b.ts'), 0o644);
    repo.git('rm', '-q', 'src/a.ts');
    expect(sameSnapshot(...(await headAndWorktree()))).toBe(false);
    repo.git('reset', '-q', '--hard');
    repo.write('src/c.ts', 'export const c = 1;\n');
    repo.git('add', 'src/c.ts');
    expect(
      sameSnapshot(await indexSnapshot(repo.dir), await commitSnapshot(repo.dir, 'HEAD')),
    ).toBe(false);
  });

  it('never matches a path listed twice against two paths', async () => {
    const [a, b] = await commitSnapshot(repo.dir, 'HEAD');
    if (a === undefined || b === undefined) throw new Error('the fixture has two files');
    expect(sameSnapshot([a, a], [a, b])).toBe(false);
    expect(sameSnapshot([a, b], [a, a])).toBe(false);
  });
});
