import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { useOwnCacheFolder } from '../support/own-cache-folder.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

describe('aureus analyze', () => {
  useOwnCacheFolder('all');
  let restoreGit: () => Promise<void>;
  let repo: Repo & { remove(): Promise<void> };
  beforeAll(async () => {
    restoreGit = await isolateGit();
    repo = await makeRepo('analyze-cli');
    repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    repo.write('src/broken.ts', 'export const = ;\n');
    repo.commit('fixture');
  });
  afterAll(async () => {
    await repo.remove();
    await restoreGit();
  });

  it('prints files, modules, cycles and files with parse errors', async () => {
    const run = await runCliInProcess(['analyze'], repo.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '3 source files of 3 tracked (typescript 3): 3 parsed, 0 from cache.',
    );
    expect(run.stdout).toContain(
      'Import cycles (runtime imports; type-only imports not counted): 1.\n  1. 2 files:\n     src/a.ts\n     src/b.ts\n',
    );
    expect(run.stdout).toMatch(
      /Files with parse errors \(facts partial\): 1\.\n {2}src\/broken\.ts:1:14: /,
    );
    expect(run.stderr).toBe('');
  });

  it('answers in JSON, from the cache the second time', async () => {
    const run = await runCliInProcess(['analyze', '--format', 'json'], repo.dir);
    const result = JSON.parse(run.stdout);
    expect(result.cycles).toEqual([['src/a.ts', 'src/b.ts']]);
    expect(result.stats).toMatchObject({ parsed: 0, cached: 3 });
    expect(Object.keys(result.diagnostics)).toEqual(['src/broken.ts']);
    expect(result.facts).toBeUndefined();
    const withFacts = JSON.parse(
      (await runCliInProcess(['analyze', '--format', 'json', '--facts'], repo.dir)).stdout,
    );
    expect(withFacts.facts['src/a.ts'].imports).toEqual([
      {
        specifier: './b.js',
        typeOnly: false,
        reexport: false,
        dynamic: false,
        keptWhen: ['always'],
        bindings: [{ imported: 'b', local: 'b' }],
        line: 1,
      },
    ]);
  });

  it('says why it used no cache: caching off, or a cache folder inside the repository', async () => {
    const before = process.env.AUREUS_CACHE_DIR;
    try {
      process.env.AUREUS_CACHE_DIR = 'off';
      const off = await runCliInProcess(['analyze'], repo.dir);
      expect(off.stdout).toContain('3 parsed, 0 from cache.');
      expect(off.stdout).toContain('The cache was not used: AUREUS_CACHE_DIR is off.');
      process.env.AUREUS_CACHE_DIR = join(repo.dir, '.cache', 'aureus');
      const inside = await runCliInProcess(['analyze'], repo.dir);
      expect(inside.stdout).toContain('3 parsed, 0 from cache.');
      expect(inside.stdout).toContain(
        `The cache was not used: the cache folder ${join(repo.dir, '.cache', 'aureus')} is inside the repository`,
      );
      expect(existsSync(join(repo.dir, '.cache'))).toBe(false);
    } finally {
      process.env.AUREUS_CACHE_DIR = before;
    }
  });

  it('lists abstractions with fewer than 2 implementations and the deepest hierarchies', async () => {
    const classes = await makeRepo('analyze-cli-classes');
    try {
      classes.write(
        'src/shape.ts',
        'export interface Shape {}\nexport interface Unused {}\nexport abstract class Outline {}\n',
      );
      classes.write(
        'src/circle.ts',
        "import type { Shape } from './shape.js';\nexport class Circle implements Shape {}\n",
      );
      classes.write(
        'src/ring.ts',
        "import { Circle } from './circle.js';\nimport { Base } from 'ui-kit';\nexport class Ring extends Circle {}\nexport class Band extends Ring {}\nexport class Tab extends Base {}\n",
      );
      classes.commit('classes');
      const run = await runCliInProcess(['analyze'], classes.dir);
      expect(run.stdout).toContain(
        [
          'Abstractions with fewer than 2 concrete implementations: 1 of 2; 1 interface or protocol that no class implements is a data shape, not counted (--format json lists it).',
          '  Outline (abstract-class, src/shape.ts): 0',
          'Deepest inheritance (extends levels): 2.',
          '  2  Band (src/ring.ts) → Ring (src/ring.ts) → Circle (src/circle.ts)',
          '  1  Ring (src/ring.ts) → Circle (src/circle.ts)',
          '  1  Tab (src/ring.ts) → Base (external)',
          'Class parents outside the repository or not resolved: 1 (external 1).',
        ].join('\n'),
      );
      const json = JSON.parse(
        (await runCliInProcess(['analyze', '--format', 'json'], classes.dir)).stdout,
      );
      expect(
        json.implementations.map((entry: { name: string; concrete: unknown[] }) => [
          entry.name,
          entry.concrete.length,
        ]),
      ).toEqual([
        ['Shape', 3],
        ['Unused', 0],
        ['Outline', 0],
      ]);
      expect(json.inheritance).toHaveLength(5);
      expect(json.unresolvedHeritage).toEqual([
        {
          file: 'src/ring.ts',
          name: 'Tab',
          relation: 'extends',
          written: 'Base',
          reason: 'external',
          detail: 'ui-kit',
        },
      ]);
    } finally {
      await classes.remove();
    }
  });

  it('exits 2 on an unknown parser or a ref that names no commit', async () => {
    const parser = await runCliInProcess(['analyze', '--parser', 'regex'], repo.dir);
    expect(parser.code).toBe(2);
    expect(parser.stderr).toContain('unknown parser "regex"');
    const ref = await runCliInProcess(['analyze', '--ref', 'no-such-ref'], repo.dir);
    expect(ref.code).toBe(2);
    expect(ref.stderr).toContain('does not name a commit');
  });

  it('refuses tree-sitter for TypeScript and JavaScript, naming the parsers that read them', async () => {
    const result = await runCliInProcess(['analyze', '--parser', 'tree-sitter'], repo.dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown parser "tree-sitter"');
    expect(result.stderr).toContain('Python, Go and Java are always read by tree-sitter');
    expect(result.stderr).toContain('--parser auto, --parser oxc, --parser typescript');
  });
});
