import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { checkAsJson } from '../support/run-cli-in-process.js';

/** 900 code lines in one class: a god class under the default policy. */
const HUGE = [
  'export class Huge {',
  ...Array.from({ length: 900 }, (_, i) => `  m${i}(): number { return ${i}; }`),
  '}',
  '',
].join('\n');

const GOD_CLASS = /new god_class: class Huge spans 902 lines of code/;

/**
 * The default `paths.tests` holds `**\/*.test.*`: code the product imports under such a name
 * runs in the product, and is judged and priced as product code, not as a test.
 */
describe('files named as tests that the product runs', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('tests-in-product');
    repo.write('src/app.ts', 'export const app = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const check = () => checkAsJson(repo.dir, base);

  it('blocks a god class named as a test that product code imports, at its full price', async () => {
    repo.write('src/huge.test.ts', HUGE);
    repo.write(
      'src/app.ts',
      "import { Huge } from './huge.test';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('a god class under a test name, run by the app');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(expect.stringMatching(GOD_CLASS));
    const item = report.costItems.find(
      (entry: { category: string; path: string | null }) =>
        entry.category === 'loc' && entry.path === 'src/huge.test.ts',
    );
    expect(item.points).toBe(902);
    expect(report.verdict).toBe('block');
    expect(code).toBe(1);
  });

  it('prices the lines of an earlier test as code once product code imports it', async () => {
    // 1,600 code lines and no finding: only the price can stop them.
    const util = Array.from({ length: 1600 }, (_, i) => `export const v${i} = ${i};`);
    repo.write('src/util.test.ts', `${util.join('\n')}\n`);
    base = repo.commit('1,600 lines under a test name, run by nothing');
    repo.write('src/app.ts', "import { v1 } from './util.test';\nexport const app = v1;\n");
    repo.commit('the app runs them');
    const { code, report } = await check();
    const item = report.costItems.find(
      (entry: { category: string; path: string | null }) =>
        entry.category === 'loc' && entry.path === 'src/util.test.ts',
    );
    // The base priced them at test_code_weight (0.25): the rest, 0.75 of 1,600, is due now.
    expect(item.points).toBe(1200);
    expect(item.detail).toMatch(/the product now runs it/);
    expect(report.verdict).toBe('block');
    expect(code).toBe(1);
  });

  it('blocks a god class an earlier change wrote as a test once product code imports it', async () => {
    repo.write('src/huge.test.ts', HUGE);
    base = repo.commit('a god class under a test name, run by nothing');
    repo.write(
      'src/app.ts',
      "import { Huge } from './huge.test';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('the app runs it');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(expect.stringMatching(GOD_CLASS));
    expect(report.verdict).toBe('block');
    expect(code).toBe(1);
  });

  it('keeps a test that product code imports only as a type a test', async () => {
    repo.write('src/huge.test.ts', HUGE);
    repo.write('src/app.ts', "import type { Huge } from './huge.test';\nexport type App = Huge;\n");
    repo.commit('a type taken from a test');
    const { code, report } = await check();
    expect(report.findings).toEqual([]);
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
  });
});
