import { describe, expect, it } from '@jest/globals';
import { itemsOf, policyFrom, priceOf, tsLines } from './pricing-support.js';

describe('loc', () => {
  it('gives a pure deletion a negative cost', async () => {
    const priced = await priceOf([{ path: 'src/old.ts', base: tsLines(12) }]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: -12, path: 'src/old.ts', detail: 'removes 12 code lines' },
    ]);
    expect(priced.cost.total).toBe(-12);
  });

  it('prices a pure rename at nothing', async () => {
    const priced = await priceOf([
      { path: 'src/b.ts', oldPath: 'src/a.ts', base: tsLines(30), head: tsLines(30) },
    ]);
    expect(priced.cost).toEqual({
      loc: 0,
      dependencies: 0,
      abstractions: 0,
      security: 0,
      files: 0,
      modules: 0,
      tool: 0,
      total: 0,
    });
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 0, path: 'src/b.ts', detail: 'no change in code lines (moved from src/a.ts)' },
    ]);
  });

  it('prices a rename with 10 added lines at 10', async () => {
    const priced = await priceOf([
      { path: 'src/b.ts', oldPath: 'src/a.ts', base: tsLines(30), head: tsLines(40) },
    ]);
    expect(priced.cost.loc).toBe(10);
    expect(priced.cost.total).toBe(10);
  });

  it('prices a new file at its lines plus the file price', async () => {
    const priced = await priceOf([{ path: 'src/new.ts', head: tsLines(42) }]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 42, path: 'src/new.ts', detail: 'adds 42 code lines' },
    ]);
    expect(priced.cost).toMatchObject({ loc: 42, files: 5, total: 47 });
  });

  it('says when a side does not parse: its lines count, its other facts are partial', async () => {
    const broken = `${tsLines(3)}export const = ;\n`;
    const added = await priceOf([{ path: 'src/new.ts', head: broken }]);
    expect(itemsOf(added, 'loc')).toEqual([
      {
        points: 4,
        path: 'src/new.ts',
        detail:
          'adds 4 code lines; does not parse (line 4, column 14): its abstractions and sensitive surfaces count only as far as the parser read',
      },
    ]);
    const fixed = await priceOf([{ path: 'src/a.ts', base: broken, head: tsLines(4) }]);
    expect(itemsOf(fixed, 'loc')[0]?.detail).toBe(
      'no change in code lines; did not parse at the base (line 4, column 14): its abstractions and sensitive surfaces count only as far as the parser read',
    );
  });

  it('counts code lines only: comments and blank lines are free', async () => {
    const head = `${tsLines(3)}\n\n// a comment\n/* and\n a block */\n`;
    const priced = await priceOf([{ path: 'src/a.ts', base: tsLines(3), head }]);
    expect(priced.cost.loc).toBe(0);
  });

  it('weights a test file at 0.25', async () => {
    const priced = await priceOf([{ path: 'test/a.test.ts', base: tsLines(2), head: tsLines(10) }]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 2, path: 'test/a.test.ts', detail: 'adds 8 code lines (test code, × 0.25)' },
    ]);
  });

  it('weights generated code at 0 by default', async () => {
    const priced = await priceOf([
      { path: 'src/policy.generated.ts', head: `// @generated\n${tsLines(100)}` },
    ]);
    expect(priced.cost.loc).toBe(0);
  });

  it("prices a file named as generated code without its generator's mark as code", async () => {
    const priced = await priceOf([{ path: 'src/policy.generated.ts', head: tsLines(100) }]);
    expect(priced.cost.loc).toBe(100);
    expect(itemsOf(priced, 'loc')[0]?.detail).toMatch(
      /^adds 100 code lines; named as generated code/,
    );
  });

  it('leaves an ignored file out entirely', async () => {
    const priced = await priceOf([{ path: 'dist/index.js', head: tsLines(500) }]);
    expect(priced.items).toEqual([]);
    expect(priced.cost.total).toBe(0);
  });

  it('prices a file renamed out of an ignored folder as all new lines', async () => {
    const priced = await priceOf([
      { path: 'src/a.ts', oldPath: 'dist/a.ts', base: tsLines(7), head: tsLines(7) },
    ]);
    expect(priced.cost.loc).toBe(7);
  });

  it('prices code moved out of documentation as all new lines', async () => {
    const priced = await priceOf([
      { path: 'src/a.ts', oldPath: 'src/a.txt', base: tsLines(40), head: tsLines(40) },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      {
        points: 40,
        path: 'src/a.ts',
        detail: 'adds 40 lines; its old path priced none of its lines (moved from src/a.txt)',
      },
    ]);
  });

  it('prices code moved out of the tests at the weight its old path left unpriced', async () => {
    const priced = await priceOf([
      { path: 'src/a.ts', oldPath: 'test/a.ts', base: tsLines(40), head: tsLines(40) },
    ]);
    // test_code_weight 0.25: a quarter of its lines were priced when it was written.
    expect(priced.cost.loc).toBe(30);
  });

  it('gives no credit for code moved into the tests', async () => {
    const priced = await priceOf([
      { path: 'test/a.ts', oldPath: 'src/a.ts', base: tsLines(40), head: tsLines(40) },
    ]);
    expect(priced.cost.loc).toBe(0);
  });

  it('prices a copy as new code: all its lines plus the file price', async () => {
    const priced = await priceOf([
      {
        path: 'src/b.ts',
        oldPath: 'src/a.ts',
        status: 'copied',
        base: tsLines(20),
        head: tsLines(23),
      },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 23, path: 'src/b.ts', detail: 'adds 23 code lines (copied from src/a.ts)' },
    ]);
    expect(priced.cost).toMatchObject({ loc: 23, files: 5, total: 28 });
  });

  it('prices text in other languages by non-blank lines', async () => {
    const priced = await priceOf([
      { path: 'scripts/build.sh', base: 'set -e\n', head: 'set -e\n\nmake\n\n  \nmake test\n' },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 2, path: 'scripts/build.sh', detail: 'adds 2 lines' },
    ]);
    expect(priced.cost.files).toBe(0);
  });

  it('lets deleted data pay for no code: its credit is taken back when the rest costs points', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => `${i},row ${i}\n`).join('');
    const priced = await priceOf([
      { path: 'data/old.csv', base: rows },
      { path: 'src/feature.ts', head: tsLines(150) },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      {
        points: 200,
        path: null,
        detail:
          'credit of 200 points for removed lines no extractor reads taken back: it pays for nothing else the change adds',
      },
      { points: -200, path: 'data/old.csv', detail: 'removes 200 lines' },
      { points: 150, path: 'src/feature.ts', detail: 'adds 150 code lines' },
    ]);
    expect(priced.cost).toMatchObject({ loc: 150, files: 5, total: 155 });
  });

  it('keeps the credit of text replaced by text, and of code deleted', async () => {
    const script = (count: number) =>
      Array.from({ length: count }, (_, i) => `echo ${i}\n`).join('');
    const priced = await priceOf([
      { path: 'scripts/old.sh', base: script(40) },
      { path: 'scripts/new.sh', head: script(10) },
      { path: 'src/old.ts', base: tsLines(12) },
    ]);
    expect(priced.cost.loc).toBe(-42);
    expect(itemsOf(priced, 'loc').every((item) => item.path !== null)).toBe(true);
  });

  it('prices text on few long lines at least by its size, like the same bytes as a binary', async () => {
    const oneLine = `{"data":"${'x'.repeat(400_000)}"}\n`;
    const priced = await priceOf([{ path: 'data/blob.json', head: oneLine }]);
    const [item] = itemsOf(priced, 'loc');
    expect(item?.points).toBe(Math.ceil(Buffer.byteLength(oneLine) / 4096));
  });

  it('does not price documentation', async () => {
    const priced = await priceOf([
      { path: 'README.md', base: '# T\n', head: '# T\n\nmore\n\nand more\n' },
      { path: 'docs/guide.rst', head: 'Guide\n=====\n\nText.\n' },
      { path: 'LICENSE', head: 'MIT License\n' },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 0, path: 'LICENSE', detail: 'documentation: not priced' },
      { points: 0, path: 'README.md', detail: 'documentation: not priced' },
      { points: 0, path: 'docs/guide.rst', detail: 'documentation: not priced' },
    ]);
    expect(priced.cost.total).toBe(0);
  });

  it("does not price AUREUS's own policy and baseline as lines: what they give away is judged instead", async () => {
    const findings = Array.from({ length: 300 }, (_, i) => `  {"rule": "god_class", "n": ${i}}`);
    const priced = await priceOf([
      { path: '.aureus/baseline.json', head: `[\n${findings.join(',\n')}\n]\n` },
      {
        path: '.aureus/policy.yaml',
        base: 'version: 1\n',
        head: 'version: 1\nbudgets:\n  core_files: 40\n',
      },
      { path: 'config/baseline.json', head: '{\n  "a": 1\n}\n' },
    ]);
    const record =
      "AUREUS's own record: judged by what it gives away (a loosening needs a maintainer), not by its lines";
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 0, path: '.aureus/baseline.json', detail: record },
      { points: 0, path: '.aureus/policy.yaml', detail: record },
      { points: 3, path: 'config/baseline.json', detail: 'adds 3 lines' },
    ]);
  });

  it("prices code moved out of AUREUS's own records as all new lines", async () => {
    const priced = await priceOf([
      { path: 'src/a.ts', oldPath: '.aureus/baseline.json', base: tsLines(40), head: tsLines(40) },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      {
        points: 40,
        path: 'src/a.ts',
        detail:
          'adds 40 lines; its old path priced none of its lines (moved from .aureus/baseline.json)',
      },
    ]);
  });

  it('never prices an added binary file at 0', async () => {
    const priced = await priceOf([
      { path: 'assets/logo.png', head: { kind: 'binary', size: 10_000 } },
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: 3, path: 'assets/logo.png', detail: 'binary file of 9.8 KiB: 3 size units' },
    ]);
    expect(priced.notes).toEqual([
      expect.stringContaining('assets/logo.png: a binary file, priced by its size'),
    ]);
    const tiny = await priceOf([{ path: 'a.bin', head: { kind: 'binary', size: 1 } }]);
    expect(tiny.cost.total).toBe(1);
  });

  it('prices a too-large file by size, and a deleted binary at nothing', async () => {
    const priced = await priceOf([
      { path: 'data/big.json', base: '{}\n', head: { kind: 'too-large', size: 5 * 1024 * 1024 } },
      { path: 'old.bin', base: { kind: 'binary', size: 4096 } },
    ]);
    expect(itemsOf(priced, 'loc').map((item) => item.points)).toEqual([1279, 0]);
  });

  it('prices symlinks and submodules at nothing, with a note', async () => {
    const priced = await priceOf([
      { path: 'link', head: { kind: 'symlink', size: 8 } },
      { path: 'vendor/lib', head: { kind: 'submodule', size: 0 } },
    ]);
    expect(priced.cost.total).toBe(0);
    expect(priced.notes).toEqual([
      'link: a symlink, not priced (0 points).',
      'vendor/lib: a submodule, not priced (0 points).',
    ]);
  });

  it('leaves lockfile lines to the dependencies category', async () => {
    const lock = JSON.stringify({ lockfileVersion: 3, packages: { '': {} } }, null, 2);
    const priced = await priceOf([{ path: 'package-lock.json', base: lock, head: `${lock}\n\n` }]);
    expect(itemsOf(priced, 'loc')).toEqual([
      {
        points: 0,
        path: 'package-lock.json',
        detail: 'lockfile: what it adds is priced as dependencies',
      },
    ]);
  });

  it("uses the given policy's ignore globs", async () => {
    const policy = policyFrom('paths:\n  ignore: ["vendor/**"]\n');
    const priced = await priceOf([{ path: 'vendor/x.ts', head: tsLines(9) }], { policy });
    expect(priced.cost.total).toBe(0);
  });
});
