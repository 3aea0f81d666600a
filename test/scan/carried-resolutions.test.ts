import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { analyzeSnapshot } from '../../src/scan/analyze-snapshot.js';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import type { RepositorySource } from '../../src/scan/repository-source.js';
import { workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * Import answers carried over from an earlier snapshot of the same configs must be exactly the
 * answers a fresh resolution gives: each step below adds, removes or renames files, then the
 * graph built from the cache kept across the steps is compared with one built from an empty one.
 */
describe('import answers carried over between snapshots', () => {
  let restoreGit: () => Promise<void>;
  let repo: Repo & { remove(): Promise<void> };
  let kept: { path: string; remove(): Promise<void> };
  let emptyStore: { path: string; remove(): Promise<void> };
  let resolutionLoads = 0;

  /** The git source, counting how often TypeScript's resolution inputs are read. */
  const counted = (cacheDir: string): RepositorySource => {
    const git = gitRepositorySource(repo.dir);
    return {
      ...git,
      cacheDir,
      resolutionFiles: (snapshot) => {
        if (cacheDir === kept.path) resolutionLoads += 1;
        return git.resolutionFiles(snapshot);
      },
    };
  };

  const edgesWith = async (cacheDir: string) => {
    const snapshot = await workingTreeSnapshot(repo.dir);
    const analysis = await analyzeSnapshot(counted(cacheDir), snapshot, defaultPolicy());
    return analysis.graph.edges;
  };

  /** The graph with the kept cache, which must equal a fresh one; and whether it loaded TypeScript. */
  const step = async () => {
    const loadsBefore = resolutionLoads;
    const carried = await edgesWith(kept.path);
    rmSync(join(emptyStore.path, 'resolutions'), { recursive: true, force: true });
    expect(carried).toEqual(await edgesWith(emptyStore.path));
    return { edges: carried, resolved: resolutionLoads > loadsBefore };
  };

  beforeAll(async () => {
    restoreGit = await isolateGit();
    repo = await makeRepo('carried-resolutions');
    kept = await makeTempDir('carried-resolutions-kept');
    emptyStore = await makeTempDir('carried-resolutions-fresh');
    repo.write(
      'tsconfig.json',
      '{ "compilerOptions": { "module": "preserve", "strict": true } }\n',
    );
    repo.write(
      'src/main.ts',
      [
        "import { b } from './b';",
        "import { c } from './c.js';",
        "import { d } from './d';",
        "import { later } from './later';",
        "import { deep } from './lib/deep/util';",
        'export const main = [b, c, d, later, deep];',
        '',
      ].join('\n'),
    );
    repo.write('src/b/index.ts', 'export const b = 1;\n');
    repo.write('src/c.ts', 'export const c = 1;\n');
    repo.write('src/d.ts', 'export const d = 1;\n');
    repo.write('src/other.ts', "import { c } from './c.js';\nexport const other = c;\n");
    repo.commit('base');
  });

  afterAll(async () => {
    await repo.remove();
    await kept.remove();
    await emptyStore.remove();
    await restoreGit();
  });

  it('resolves on a first run, and not again when nothing moved', async () => {
    expect((await step()).resolved).toBe(true);
    expect((await step()).resolved).toBe(false);
  });

  it('keeps every answer when an unrelated file is added: TypeScript is not loaded', async () => {
    repo.write('src/unrelated/new.ts', "import { c } from '../c.js';\nexport const n = c;\n");
    repo.git('add', '--all');
    const { resolved } = await step();
    // `../c.js` from src/unrelated/ is a new import: its answer has to be computed.
    expect(resolved).toBe(true);
    repo.write('src/also-unrelated.ts', "import { c } from './c.js';\nexport const n = c;\n");
    repo.git('add', '--all');
    expect((await step()).resolved).toBe(false);
  });

  it('follows a file that now comes first (b.ts before b/index.ts)', async () => {
    repo.write('src/b.ts', 'export const b = 2;\n');
    repo.git('add', '--all');
    const { edges, resolved } = await step();
    expect(resolved).toBe(true);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'src/main.ts', to: 'src/b.ts' }));
  });

  it('finds an import that was missing, also in a folder that did not exist', async () => {
    repo.write('src/later.ts', 'export const later = 1;\n');
    repo.write('src/lib/deep/util.ts', 'export const deep = 1;\n');
    repo.git('add', '--all');
    const { edges } = await step();
    expect(edges).toContainEqual(expect.objectContaining({ to: 'src/later.ts' }));
    expect(edges).toContainEqual(expect.objectContaining({ to: 'src/lib/deep/util.ts' }));
  });

  it('follows a file that moved into a folder, and one that was removed', async () => {
    repo.git('rm', '--quiet', '--force', 'src/d.ts', 'src/later.ts');
    repo.write('src/d/index.ts', 'export const d = 1;\n');
    repo.git('add', '--all');
    const { edges } = await step();
    expect(edges).toContainEqual(expect.objectContaining({ to: 'src/d/index.ts' }));
    expect(edges).not.toContainEqual(expect.objectContaining({ to: 'src/later.ts' }));
  });

  it('resolves everything again when a config changes', async () => {
    repo.write(
      'tsconfig.json',
      '{ "compilerOptions": { "module": "preserve", "paths": { "~/*": ["./src/*"] } } }\n',
    );
    repo.write('src/alias.ts', "import { c } from '~/c.js';\nexport const alias = c;\n");
    repo.git('add', '--all');
    const { edges, resolved } = await step();
    expect(resolved).toBe(true);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'src/alias.ts', to: 'src/c.ts' }));
  });

  it('resolves everything again when a config that a tsconfig extends changes, whatever its name', async () => {
    repo.write(
      'tsconfig.json',
      '{ "extends": "./settings/base.json", "compilerOptions": { "module": "preserve" } }\n',
    );
    repo.write(
      'settings/base.json',
      '{ "compilerOptions": { "paths": { "~/*": ["../src/*"] } } }\n',
    );
    repo.write('lib/c.ts', 'export const c = 2;\n');
    repo.git('add', '--all');
    expect((await step()).edges).toContainEqual(
      expect.objectContaining({ from: 'src/alias.ts', to: 'src/c.ts' }),
    );
    repo.write(
      'settings/base.json',
      '{ "compilerOptions": { "paths": { "~/*": ["../lib/*"] } } }\n',
    );
    repo.git('add', '--all');
    const { edges, resolved } = await step();
    expect(resolved).toBe(true);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'src/alias.ts', to: 'lib/c.ts' }));
  });
});
