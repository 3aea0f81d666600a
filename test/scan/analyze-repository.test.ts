import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Policy } from '../../src/model/policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { analyzeRepository } from '../../src/scan/analyze-repository.js';
import { forgedFactsFiles } from '../support/forged-caches.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { useOwnCacheFolder } from '../support/own-cache-folder.js';

/** A policy as a user would write it, completed with defaults. */
function policyFrom(yaml: string): Policy {
  const parsed = parsePolicy(`version: 1\n${yaml}`, '.aureus/policy.yaml');
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.policy;
}

describe('analyzeRepository', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  const caches = useOwnCacheFolder('each');
  beforeEach(async () => {
    repo = await makeRepo('analyze');
    // a ↔ b import each other at run time; c ↔ d only through types.
    repo.write(
      'src/core/a.ts',
      "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
    );
    repo.write(
      'src/core/b.ts',
      "import { a } from './a.js';\nexport function b(): number {\n  return a.length;\n}\n",
    );
    repo.write(
      'src/types/c.ts',
      "import type { D } from './d.js';\nexport interface C { d?: D }\n",
    );
    repo.write(
      'src/types/d.ts',
      "import type { C } from './c.js';\nexport interface D { c?: C }\n",
    );
    repo.write(
      'src/app/main.js',
      "import { a } from '../core/a.js';\nlet runs = 0;\nexport function main() { runs += 1; return a(); }\n",
    );
    repo.write(
      'tools/report.py',
      'import os\n\nclass Report:\n    def render(self):\n        return os.getcwd()\n',
    );
    repo.write('README.md', '# fixture\n');
    repo.commit('fixture');
  });
  afterEach(() => repo.remove());

  it('finds the runtime cycle, and the type-only one only when the policy counts it', async () => {
    const runtime = await analyzeRepository(repo.dir, defaultPolicy());
    expect(runtime.cycles).toEqual([['src/core/a.ts', 'src/core/b.ts']]);
    expect(runtime.countsTypeOnlyImports).toBe(false);

    const withTypes = policyFrom(
      'forbidden_patterns:\n  circular_dependency:\n    count_type_only_imports: true\n',
    );
    const all = await analyzeRepository(repo.dir, withTypes);
    expect(all.cycles).toEqual([
      ['src/core/a.ts', 'src/core/b.ts'],
      ['src/types/c.ts', 'src/types/d.ts'],
    ]);
  });

  it('reports facts per file, languages and the modules under paths.core', async () => {
    const analysis = await analyzeRepository(repo.dir, defaultPolicy());
    expect(analysis.stats).toMatchObject({
      trackedFiles: 7,
      sourceFiles: 6,
      byLanguage: { typescript: 4, javascript: 1, python: 1 },
    });
    expect(analysis.facts.get('src/app/main.js')?.mutableState).toEqual([
      { name: 'runs', line: 2 },
    ]);
    expect(analysis.facts.get('tools/report.py')?.classes.map((c) => c.name)).toEqual(['Report']);
    expect(analysis.modules.modules).toEqual(['src/app', 'src/core', 'src/types']);
    expect(analysis.moduleEdges).toEqual([
      { from: 'src/app', to: 'src/core', count: 1, typeOnly: false },
    ]);
  });

  it('parses each blob once: a second run reads every file from the cache, an edit re-parses one', async () => {
    const first = await analyzeRepository(repo.dir, defaultPolicy());
    expect(first.stats).toMatchObject({ parsed: 6, cached: 0 });
    const second = await analyzeRepository(repo.dir, defaultPolicy());
    expect(second.stats).toMatchObject({ parsed: 0, cached: 6 });
    expect(second.cycles).toEqual(first.cycles);

    // An edit in the working tree, not staged: analysed as it stands on disk.
    repo.write('src/core/b.ts', 'export function b(): number {\n  return 2;\n}\n');
    const edited = await analyzeRepository(repo.dir, defaultPolicy());
    expect(edited.stats).toMatchObject({ parsed: 1, cached: 5 });
    expect(edited.cycles).toEqual([]);
  });

  it('analyses a commit instead of the working tree', async () => {
    const before = repo.git('rev-parse', 'HEAD');
    repo.write('src/core/b.ts', 'export function b(): number {\n  return 2;\n}\n');
    repo.commit('break the cycle');
    expect((await analyzeRepository(repo.dir, defaultPolicy())).cycles).toEqual([]);
    expect((await analyzeRepository(repo.dir, defaultPolicy(), { ref: before })).cycles).toEqual([
      ['src/core/a.ts', 'src/core/b.ts'],
    ]);
  });

  it('leaves out what the policy ignores', async () => {
    const analysis = await analyzeRepository(
      repo.dir,
      policyFrom('paths:\n  ignore: [src/core/b.ts, tools/**]\n'),
    );
    expect([...analysis.facts.keys()].sort()).toEqual([
      'src/app/main.js',
      'src/core/a.ts',
      'src/types/c.ts',
      'src/types/d.ts',
    ]);
    expect(analysis.cycles).toEqual([]);
  });

  it('reads no cache the repository ships: facts it tracks under .aureus/local/ are its files', async () => {
    const honest = await analyzeRepository(repo.dir, defaultPolicy());
    const b = honest.facts.get('src/core/b.ts');
    if (b === undefined) throw new Error('b.ts has facts');
    // b.ts said to import nothing, which would break the cycle a ↔ b; checksums recomputed.
    const forged = {
      blobSha: repo.git('rev-parse', 'HEAD:src/core/b.ts'),
      facts: { ...b, imports: [] },
    };
    for (const [path, text] of Object.entries(forgedFactsFiles('.aureus/local/cache', [forged])))
      repo.write(path, text);
    repo.commit('plant a cache');
    await rm(join(caches.path(), 'facts'), { recursive: true });
    const analysis = await analyzeRepository(repo.dir, defaultPolicy());
    expect(analysis.cycles).toEqual(honest.cycles);
    expect(analysis.usedCache).toBe(true);
    expect(analysis.stats).toMatchObject({ sourceFiles: 6, parsed: 6, cached: 0 });
  });

  it('gives identical facts whichever parser reads the TypeScript', async () => {
    const viaTypeScript = await analyzeRepository(repo.dir, defaultPolicy(), {
      parser: 'typescript',
    });
    expect(viaTypeScript.stats.parsed).toBe(6);
    await rm(join(caches.path(), 'facts'), { recursive: true });
    const viaOxc = await analyzeRepository(repo.dir, defaultPolicy(), { parser: 'oxc' });
    expect(viaOxc.stats.parsed).toBe(6);
    expect(viaOxc.facts).toEqual(viaTypeScript.facts);
  });

  it('resolves classes across files: implementations of each abstraction, inheritance depth', async () => {
    repo.write('src/shapes/shape.ts', 'export interface Shape {\n  area(): number;\n}\n');
    repo.write(
      'src/shapes/circle.ts',
      "import type { Shape } from './shape.js';\nexport class Circle implements Shape {\n  area() {\n    return 3;\n  }\n}\n",
    );
    repo.write(
      'src/shapes/index.ts',
      "export * from './shape.js';\nexport { Circle as Round } from './circle.js';\n",
    );
    repo.write(
      'src/app/ring.ts',
      "import { Round } from '../shapes/index.js';\nexport class Ring extends Round {}\nexport class Band extends Ring {}\n",
    );
    repo.write('tools/pdf.py', 'from report import Report\n\nclass Pdf(Report):\n    pass\n');
    repo.commit('classes');

    const analysis = await analyzeRepository(repo.dir, defaultPolicy());
    const circle = { file: 'src/shapes/circle.ts', name: 'Circle' };
    const ring = { file: 'src/app/ring.ts', name: 'Ring' };
    const band = { file: 'src/app/ring.ts', name: 'Band' };
    expect(analysis.implementations).toEqual([
      {
        file: 'src/shapes/shape.ts',
        name: 'Shape',
        kind: 'interface',
        direct: [circle],
        all: [ring, band, circle],
        concrete: [ring, band, circle],
      },
      // The fixture's interfaces C and D, used only as types: no implementation.
      { file: 'src/types/c.ts', name: 'C', kind: 'interface', direct: [], all: [], concrete: [] },
      { file: 'src/types/d.ts', name: 'D', kind: 'interface', direct: [], all: [], concrete: [] },
    ]);
    expect(
      analysis.inheritance
        .filter((cls) => cls.depth > 0)
        .map(({ name, depth, chain }) => [
          name,
          depth,
          chain.map((link) => link.kind === 'declaration' && link.name),
        ]),
    ).toEqual([
      ['Ring', 1, ['Circle']],
      ['Band', 2, ['Ring', 'Circle']],
      ['Pdf', 1, ['Report']],
    ]);
    expect(analysis.unresolvedHeritage).toEqual([]);
  });
});
