import { describe, expect, it } from '@jest/globals';
import { groupModules } from '../../src/analysis/graph/policy-modules.js';
import { itemsOf, priceOf, tsLines } from './pricing-support.js';

describe('files', () => {
  it('prices an added source file at 5, and renames, deletions and non-source files at nothing', async () => {
    const priced = await priceOf([
      { path: 'src/added.ts', head: tsLines(1) },
      { path: 'src/moved.ts', oldPath: 'src/was.ts', base: tsLines(1), head: tsLines(1) },
      { path: 'src/deleted.ts', base: tsLines(1) },
      { path: 'docs/guide.md', head: '# Guide\n' },
    ]);
    expect(itemsOf(priced, 'files')).toEqual([
      { points: 5, path: 'src/added.ts', detail: 'new file' },
    ]);
  });
});

describe('modules', () => {
  it('prices a new module at 20', async () => {
    const core = ['src/**'];
    const base = groupModules(['src/a/x.ts'], core).modules;
    const head = groupModules(['src/a/x.ts', 'src/pricing/y.ts'], core).modules;
    const priced = await priceOf([{ path: 'src/pricing/y.ts', head: tsLines(1) }], {
      baseModules: base,
      headModules: head,
    });
    expect(itemsOf(priced, 'modules')).toEqual([
      { points: 20, path: null, detail: 'new module src/pricing' },
    ]);
    expect(priced.cost).toMatchObject({ loc: 1, files: 5, modules: 20, total: 26 });
  });

  it('credits nothing for a module that disappears', async () => {
    const priced = await priceOf([], { baseModules: ['src/a', 'src/b'], headModules: ['src/a'] });
    expect(priced.cost.modules).toBe(0);
  });
});

describe('item order', () => {
  it('lists items by category, then path', async () => {
    const priced = await priceOf(
      [
        { path: 'src/z.ts', head: "import 'child_process';\nexport interface Z { run(): void }\n" },
        { path: 'src/a.ts', head: tsLines(1) },
      ],
      { headModules: ['src'] },
    );
    expect(priced.items.map((item) => `${item.category} ${item.path ?? '-'}`)).toEqual([
      'loc src/a.ts',
      'loc src/z.ts',
      'abstractions src/z.ts',
      'security src/z.ts',
      'files src/a.ts',
      'files src/z.ts',
      'modules -',
    ]);
  });
});
