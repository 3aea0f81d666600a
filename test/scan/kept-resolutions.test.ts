import { existsSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { analyzeSnapshot } from '../../src/scan/analyze-snapshot.js';
import { resolutionsKeeper } from '../../src/scan/cached-resolver.js';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import { graphKeeper } from '../../src/scan/kept-graph.js';
import type { RepositorySource } from '../../src/scan/repository-source.js';
import { workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * Import answers kept open across the analyses of successive snapshots (a builder run's trees,
 * action after action) must be exactly those a fresh analysis gives. Each step changes the
 * working tree, then one analysis through a keeper kept across the steps is compared with one
 * from an empty store. Before each, the kept store's answers are deleted: a keeper that reuses
 * its answers never needs them, one that opens them again has to resolve (load the inputs).
 */
/** Deletes the stored answers of a cache folder, keeping its folders as the keeper found them. */
function forgetAnswers(cacheDir: string): void {
  const folder = join(cacheDir, 'resolutions');
  if (!existsSync(folder)) return;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) rmSync(join(entry.parentPath, entry.name));
}

describe('import answers kept open between snapshots', () => {
  let restoreGit: () => Promise<void>;
  let repo: Repo & { remove(): Promise<void> };
  let kept: { path: string; remove(): Promise<void> };
  let emptyStore: { path: string; remove(): Promise<void> };
  let keptSource: RepositorySource;
  let loads = 0;
  const keeper = resolutionsKeeper();
  const graphs = graphKeeper();
  const defaults = defaultPolicy();
  const policy = { ...defaults, paths: { ...defaults.paths, ignore: ['generated/**'] } };
  let lastGraph: unknown;

  const analysed = async (source: RepositorySource, keep: boolean) => {
    const snapshot = await workingTreeSnapshot(repo.dir);
    const analysis = await analyzeSnapshot(source, snapshot, policy, {
      ...(keep ? { openResolutions: keeper, graphKeeper: graphs } : {}),
    });
    return {
      graph: analysis.graph,
      cycles: analysis.cycles,
      modules: analysis.modules,
      moduleEdges: analysis.moduleEdges,
      unreadImports: analysis.unreadImports,
      unreadable: analysis.unreadable,
      implementations: analysis.implementations,
      inheritance: analysis.inheritance,
      unresolvedHeritage: analysis.unresolvedHeritage,
    };
  };

  /** The kept analysis, which must equal a fresh one; and whether it read the inputs again. */
  const step = async () => {
    repo.git('add', '--all');
    forgetAnswers(kept.path);
    const loadsBefore = loads;
    const withKeeper = await analysed(keptSource, true);
    const reopened = loads > loadsBefore;
    forgetAnswers(emptyStore.path);
    const fresh = await analysed(
      { ...gitRepositorySource(repo.dir), cacheDir: emptyStore.path },
      false,
    );
    expect(withKeeper).toEqual(fresh);
    // The same graph object: kept from the analysis before, not built again.
    const graphKept = withKeeper.graph === lastGraph;
    lastGraph = withKeeper.graph;
    return { edges: withKeeper.graph.edges, reopened, graphKept };
  };

  beforeAll(async () => {
    restoreGit = await isolateGit();
    repo = await makeRepo('kept-resolutions');
    kept = await makeTempDir('kept-resolutions-kept');
    emptyStore = await makeTempDir('kept-resolutions-fresh');
    const git = gitRepositorySource(repo.dir);
    // One source for the whole run, as the safety gate's critic keeps it.
    keptSource = {
      ...git,
      cacheDir: kept.path,
      resolutionFiles: (snapshot) => {
        loads += 1;
        return git.resolutionFiles(snapshot);
      },
    };
    repo.write(
      'tsconfig.json',
      '{ "extends": "./settings/base.json", "compilerOptions": { "module": "preserve" } }\n',
    );
    repo.write(
      'settings/base.json',
      '{ "compilerOptions": { "paths": { "~/*": ["../src/*"] } } }\n',
    );
    repo.write(
      'src/main.ts',
      "import { c } from '~/c.js';\nimport { b } from './b';\nexport const main = [b, c];\n",
    );
    repo.write(
      'src/b.ts',
      "import type { C } from './c.js';\nexport const b = 1;\nexport type B = C;\n",
    );
    repo.write('src/c.ts', 'export const c = 1;\nexport class C {}\n');
    repo.write('lib/c.ts', 'export const c = 2;\n');
    repo.write(
      'src/uses-generated.ts',
      "import { g } from '../generated/g';\nexport const u = g;\n",
    );
    repo.write('generated/g.ts', "import { c } from '../src/c.js';\nexport const g = c;\n");
    repo.commit('base');
  });

  afterAll(async () => {
    await repo.remove();
    await kept.remove();
    await emptyStore.remove();
    await restoreGit();
  });

  it('resolves on the first snapshot, and reuses the answers while only contents change', async () => {
    expect((await step()).reopened).toBe(true);
    repo.write(
      'src/b.ts',
      "import type { C } from './c.js';\nexport const b = 2;\nexport type B = C;\n",
    );
    expect(await step()).toMatchObject({ reopened: false, graphKept: true });
  });

  it('keeps the graph while imports stay, and builds it again when an import moves a line', async () => {
    // A class that extends another: the heritage is worked out again even when the graph is kept.
    repo.write(
      'src/c.ts',
      'export class Base {}\nexport class C extends Base {}\nexport const c = 1;\n',
    );
    expect(await step()).toMatchObject({ reopened: false, graphKept: true });
    repo.write(
      'src/b.ts',
      "\nimport type { C } from './c.js';\nexport const b = 2;\nexport type B = C;\n",
    );
    expect(await step()).toMatchObject({ reopened: false, graphKept: false });
  });

  it('builds the graph again when an ignored file the code imports changes its imports', async () => {
    repo.write('generated/g.ts', "import { main } from '../src/main';\nexport const g = main;\n");
    expect((await step()).graphKept).toBe(false);
    expect((await step()).graphKept).toBe(true);
  });

  it('answers an import the kept answers do not hold yet', async () => {
    repo.write(
      'src/b.ts',
      "import { c } from './c.js';\nimport { main } from './main';\nexport const b = c;\nexport const m = main;\n",
    );
    const { edges, reopened } = await step();
    expect(reopened).toBe(false);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'src/b.ts', to: 'src/main.ts' }));
  });

  it('keeps a binary rewrite of a source file as a content change', async () => {
    repo.write('src/c.ts', 'export const c = 1;\0\0\0\nexport class C {}\n');
    expect((await step()).reopened).toBe(false);
    repo.write('src/c.ts', 'export const c = 1;\nexport class C {}\n');
    expect((await step()).reopened).toBe(false);
  });

  it('opens them again when a config that a tsconfig extends changes, whatever its name', async () => {
    repo.write(
      'settings/base.json',
      '{ "compilerOptions": { "paths": { "~/*": ["../lib/*"] } } }\n',
    );
    const { edges, reopened } = await step();
    expect(reopened).toBe(true);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'src/main.ts', to: 'lib/c.ts' }));
  });

  it('opens them again when a path is added, deleted, renamed or becomes a link', async () => {
    repo.write('src/d.ts', "import { c } from './c.js';\nexport const d = c;\n");
    expect((await step()).reopened).toBe(true);
    rmSync(join(repo.dir, 'src/d.ts'));
    expect((await step()).reopened).toBe(true);
    repo.git('mv', 'src/b.ts', 'src/renamed.ts');
    const renamed = await step();
    expect(renamed.reopened).toBe(true);
    expect(renamed.edges).not.toContainEqual(
      expect.objectContaining({ from: 'src/main.ts', to: 'src/b.ts' }),
    );
    rmSync(join(repo.dir, 'lib/c.ts'));
    symlinkSync('../src/c.ts', join(repo.dir, 'lib/c.ts'));
    expect((await step()).reopened).toBe(true);
    // Unchanged since: kept again.
    expect((await step()).reopened).toBe(false);
  });
});
