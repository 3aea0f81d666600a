import { describe, expect, it } from '@jest/globals';
import type { FileStatus } from '../../src/model/change.js';
import type { CostCategory, PricedChange } from '../../src/model/cost.js';
import { priceChange } from '../../src/pricing/index.js';
import { roundPoints } from '../../src/pricing/points.js';
import { lockfile, packageJson } from './npm-fixtures.js';
import {
  changeOf,
  type FileSpec,
  factsOfChange,
  policyFrom,
  type SideSpec,
} from './pricing-support.js';

/** mulberry32: a tiny seeded PRNG, so a failure names the seed that reproduces it. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHS = [
  'src/a.ts',
  'src/b/c.ts',
  'src/d.tsx',
  'lib/e.js',
  'test/f.test.ts',
  'src/g.generated.ts',
  'dist/h.js',
  'app/i.py',
  'cmd/j.go',
  'src/K.java',
  'README.md',
  'assets/l.png',
  'package.json',
  'package-lock.json',
  'requirements.txt',
  'pyproject.toml',
  'go.mod',
  'pom.xml',
  'link',
];
const SNIPPETS = [
  'export const x = 1;',
  "import { exec } from 'child_process';",
  'export interface I { a: number }',
  'export abstract class B {}',
  'class C extends B {}',
  "import fs from 'fs';",
  'function f() { fs.rmSync("a"); }',
  'import os',
  'def g():\n    return os.getenv("X")',
  'package main',
  'import "net/http"',
  'class J { }',
  'interface Q {}',
  '// comment',
  '',
  '{ "dependencies": { "left-pad": "1" } }',
  '{ broken',
  'requests==2',
  'module m\nrequire a/b v1.0.0',
  '<project><dependencies><dependency><groupId>g</groupId><artifactId>a</artifactId></dependency></dependencies></project>',
  '[project]\ndependencies = ["httpx"]',
  '[project',
  packageJson({ devDependencies: { jest: '1' } }),
  lockfile({ 'node_modules/left-pad': { hasInstallScript: true } }),
  '\u0000\ufffd',
  'x'.repeat(300),
];
const CATEGORIES: readonly CostCategory[] = [
  'loc',
  'dependencies',
  'abstractions',
  'security',
  'files',
  'modules',
  'tool',
];

function randomChange(random: () => number): FileSpec[] {
  const pick = <T>(items: readonly T[]): T => {
    const item = items[Math.floor(random() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  const side = (): SideSpec => {
    const roll = random();
    if (roll < 0.08)
      return {
        kind: pick(['binary', 'too-large', 'symlink', 'submodule', 'unreadable'] as const),
        size: Math.floor(random() * 100_000),
      };
    return Array.from({ length: Math.floor(random() * 6) }, () => pick(SNIPPETS)).join('\n');
  };
  const files = new Map<string, FileSpec>();
  for (let n = Math.floor(random() * 6); n > 0; n -= 1) {
    const path = pick(PATHS);
    const status: FileStatus = pick([
      'added',
      'modified',
      'deleted',
      'renamed',
      'copied',
      'type-changed',
    ]);
    const moved = status === 'renamed' || status === 'copied';
    files.set(path, {
      path,
      status,
      ...(moved ? { oldPath: pick(PATHS) } : {}),
      ...(status === 'added' ? {} : { base: side() }),
      ...(status === 'deleted' ? {} : { head: side() }),
    });
  }
  return [...files.values()];
}

function randomPolicy(random: () => number) {
  const weight = () => Math.round(random() * 3000) / 100;
  return policyFrom(
    `pricing:\n  loc_added: ${weight()}\n  loc_deleted_credit: ${weight()}\n  abstraction: ${weight()}\n  file: ${weight()}\n  test_code_weight: ${Math.round(random() * 100) / 100}\n  dependency: { per_transitive_package: ${weight()} }\n`,
  );
}

function expectConsistent(priced: PricedChange): void {
  const { cost } = priced;
  const sum = roundPoints(CATEGORIES.reduce((total, category) => total + cost[category], 0));
  expect(cost.total).toBe(sum);
  for (const category of CATEGORIES) {
    const items = priced.items.filter((item) => item.category === category);
    expect(cost[category]).toBe(roundPoints(items.reduce((total, item) => total + item.points, 0)));
  }
  for (const value of [...Object.values(cost), ...priced.items.map((item) => item.points)]) {
    expect(roundPoints(value)).toBe(value);
  }
  const order = priced.items.map((item) => CATEGORIES.indexOf(item.category));
  expect(order).toEqual([...order].sort((a, b) => a - b));
}

describe('random changes', () => {
  it('never throws, and the total is the sum of the categories, over 200 seeded changes', async () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const random = prng(seed);
      const change = changeOf(randomChange(random));
      const facts = await factsOfChange(change);
      // Sometimes a facts map misses a file (the caller could not parse it): pricing must cope.
      if (random() < 0.3) facts.headFacts.clear();
      const input = {
        change,
        ...facts,
        baseModules: random() < 0.5 ? ['src'] : [],
        headModules: random() < 0.5 ? ['src', 'src/b'] : ['src'],
        policy: random() < 0.5 ? policyFrom() : randomPolicy(random),
      };
      let priced: PricedChange;
      try {
        priced = priceChange(input);
      } catch (error) {
        throw new Error(`seed ${seed}: priceChange threw ${String(error)}`);
      }
      expectConsistent(priced);
      expect(priceChange(input)).toEqual(priced);
    }
  });
});
