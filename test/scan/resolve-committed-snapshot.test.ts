import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { analyzeSnapshot } from '../../src/scan/analyze-snapshot.js';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import { commitSnapshot, workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

let restoreGit: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let cyclic: string;

/**
 * The commit judged is not always the one checked out (`aureus check --base`, a merge queue's
 * base): its imports must resolve over its own files, with only installed packages taken from
 * the disk.
 */
beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('committed-snapshot');
  repo.write('package.json', '{ "name": "app", "type": "module" }\n');
  repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n");
  repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n");
  repo.write(
    'packages/shared/package.json',
    '{ "name": "@app/shared", "type": "module", "types": "src/index.ts" }\n',
  );
  repo.write('packages/shared/src/index.ts', 'export const shared = 2;\n');
  cyclic = repo.commit('a and b import each other');
  // The checkout moves on: b.ts is gone, a.ts stands alone, and a new c.ts imports a.ts.
  rmSync(join(repo.dir, 'src/b.ts'));
  repo.write('src/a.ts', 'export const a = (): number => 1;\n');
  repo.write(
    'src/c.ts',
    "import { shared } from '@app/shared';\nimport { a } from './a.js';\nexport const c = a + shared;\n",
  );
  repo.write('.gitignore', 'node_modules/\n');
  repo.commit('b removed');
  // The workspace link a package manager makes, never committed.
  repo.symlink('../../packages/shared', 'node_modules/@app/shared');
});

afterAll(async () => {
  await repo.remove();
  await restoreGit();
});

const source = () => gitRepositorySource(repo.dir);

describe('import resolution of a snapshot of a local clone', () => {
  it('resolves a commit that is not checked out over its own files', async () => {
    const analysis = await analyzeSnapshot(
      source(),
      await commitSnapshot(repo.dir, cyclic),
      defaultPolicy(),
    );
    expect(analysis.cycles).toEqual([['src/a.ts', 'src/b.ts']]);
    const edges = analysis.graph.edges.filter((edge) => edge.from === 'src/a.ts');
    expect(edges.map((edge) => edge.to)).toEqual(['src/b.ts']);
  });

  it('keeps answering from the commit once its answers are cached', async () => {
    const again = await analyzeSnapshot(
      source(),
      await commitSnapshot(repo.dir, cyclic),
      defaultPolicy(),
    );
    expect(again.cycles).toEqual([['src/a.ts', 'src/b.ts']]);
  });

  it('resolves the checkout over its files, and installed packages from the disk', async () => {
    const analysis = await analyzeSnapshot(
      source(),
      await workingTreeSnapshot(repo.dir),
      defaultPolicy(),
    );
    expect(analysis.cycles).toEqual([]);
    expect(analysis.graph.edges.map((edge) => [edge.from, edge.to])).toEqual([
      ['src/c.ts', 'packages/shared/src/index.ts'],
      ['src/c.ts', 'src/a.ts'],
    ]);
  });
});
