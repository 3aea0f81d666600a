import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/**
 * Shapes that line-based rules miss: code on one line, a NUL byte git takes for a binary file,
 * a UTF-16 file. Each must be judged like the same code written plainly.
 */
const POLICY = [
  'version: 1',
  'forbidden_patterns:',
  '  god_class:',
  '    severity: error',
  '    max_loc: 500',
  '',
].join('\n');

/** `class Big` with `methods` empty methods, one per line, as a formatter writes it. */
function formattedClass(methods: number): string {
  const body = Array.from({ length: methods }, (_, i) => `  m${i}() {}`).join('\n');
  return `export class Big {\n${body}\n}\n`;
}

/** The same class on one line. */
function oneLineClass(methods: number): string {
  const body = Array.from({ length: methods }, (_, i) => `m${i}(){}`).join('');
  return `export class Big{${body}}\n`;
}

/**
 * About 100 KB of functions as a formatter writes them, about 30 code characters a line (what
 * real code averages): a sparse and a dense function in turn, 15 lines per pair.
 */
function formattedModule(): string {
  return Array.from(
    { length: 170 },
    (_, i) =>
      `export function step${i}(input: number[], limit: number): number {\n  let total = 0;\n  for (const value of input) {\n    if (value > limit) total += value * ${i};\n  }\n  return total;\n}\n` +
      `export function summarize${i}(orders: readonly Order[], currency: string): Summary {\n  const paid = orders.filter((order) => order.status === 'paid' && order.currency === currency);\n  const total = paid.reduce((sum, order) => sum + order.amount * ${i}, 0);\n  if (paid.length === 0) {\n    return { count: 0, total: 0, average: null };\n  }\n  return { count: paid.length, total, average: Math.round(total / paid.length) };\n}\n`,
  ).join('');
}

/** The same module minified: indentation and line breaks gone. */
function minified(text: string): string {
  return `${text.replace(/\n\s*/g, '')}\n`;
}

function utf16le(text: string): Buffer {
  return Buffer.from(`\uFEFF${text}`, 'utf16le');
}

function utf16be(text: string): Buffer {
  return utf16le(text).swap16();
}

/** The first bytes of a PNG image, then bytes no text decoding accepts. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
  Buffer.from(Array.from({ length: 9000 }, (_, i) => (i * 7919) % 256)),
]);

interface Finding {
  readonly ruleId: string;
  readonly symbol: string;
  readonly status: string;
  readonly blocking: boolean;
  readonly location: { readonly path: string } | null;
}

interface CostItem {
  readonly category: string;
  readonly points: number;
  readonly path: string;
  readonly detail: string;
}

describe('aureus check on code shaped to escape line counts', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('shapes');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/util.ts', 'export const one = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  /** Commits `files` on a branch of their own from the base and checks that branch. */
  async function checkBranch(name: string, files: Readonly<Record<string, string | Buffer>>) {
    repo.git('checkout', '--quiet', '-b', name, base);
    for (const [path, content] of Object.entries(files)) repo.write(path, content);
    repo.commit(name);
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    return {
      code: run.code,
      verdict: report.verdict as string,
      findings: report.findings as Finding[],
      items: report.costItems as CostItem[],
    };
  }

  /** What identifies a finding and whether it blocks; the lines it spans differ by shape. */
  function godClasses(findings: readonly Finding[]) {
    return findings
      .filter((finding) => finding.ruleId === 'god_class')
      .map(({ ruleId, symbol, status, blocking, location }) => ({
        ruleId,
        symbol,
        status,
        blocking,
        path: location?.path,
      }));
  }

  const BIG_CLASS = [
    { ruleId: 'god_class', symbol: 'Big', status: 'new', blocking: true, path: 'src/big.ts' },
  ];

  it('blocks a 20,000-method class written on one line as it blocks the formatted class', async () => {
    const plain = await checkBranch('plain', { 'src/big.ts': formattedClass(20_000) });
    const oneLine = await checkBranch('one-line', { 'src/big.ts': oneLineClass(20_000) });
    expect(godClasses(plain.findings)).toEqual(BIG_CLASS);
    expect(godClasses(oneLine.findings)).toEqual(BIG_CLASS);
    expect([oneLine.verdict, oneLine.code]).toEqual(['block', 1]);
  });

  it('blocks a class in a file with a NUL byte in a comment as it blocks the plain file', async () => {
    const withNul = `// generated \0 do not edit\n${formattedClass(600)}`;
    const plain = await checkBranch('plain', { 'src/big.ts': formattedClass(600) });
    const nul = await checkBranch('nul', { 'src/big.ts': withNul });
    expect(godClasses(plain.findings)).toEqual(BIG_CLASS);
    expect(godClasses(nul.findings)).toEqual(BIG_CLASS);
    expect(nul.items.find((item) => item.path === 'src/big.ts')?.detail).toBe(
      'adds 602 code lines',
    );
    expect([nul.verdict, nul.code]).toEqual(['block', 1]);
  });

  it('blocks a class in a UTF-16 file with a byte order mark as it blocks the UTF-8 file', async () => {
    const little = await checkBranch('utf-16le', { 'src/big.ts': utf16le(formattedClass(600)) });
    const bigEndian = await checkBranch('utf-16be', { 'src/big.ts': utf16be(formattedClass(600)) });
    for (const run of [little, bigEndian]) {
      expect(godClasses(run.findings)).toEqual(BIG_CLASS);
      expect(run.items.find((item) => item.path === 'src/big.ts')?.detail).toBe(
        'adds 602 code lines',
      );
      expect([run.verdict, run.code]).toEqual(['block', 1]);
    }
  });

  it('prices a 100 KB file minified onto one line within a factor of 3 of its formatted form', async () => {
    const text = formattedModule();
    expect(text.length).toBeGreaterThan(100_000);
    const pointsOf = (items: readonly CostItem[]) =>
      items.find((item) => item.category === 'loc' && item.path === 'src/steps.ts')?.points ?? 0;
    const formatted = pointsOf((await checkBranch('formatted', { 'src/steps.ts': text })).items);
    const oneLine = pointsOf(
      (await checkBranch('minified', { 'src/steps.ts': minified(text) })).items,
    );
    expect(formatted).toBe(170 * 15);
    expect(oneLine).toBeGreaterThan(formatted / 3);
    expect(oneLine).toBeLessThanOrEqual(formatted);
  });

  it('counts the lines of code laid out with a lone CR or U+2028 as its parser does', async () => {
    // Thirty statements after a comment, each on a line of its own for the language's parser.
    const statements = Array.from({ length: 30 }, (_, i) => `total = total * 3 + ${i}`);
    const script = ['// first', 'export function f(total: number): number {']
      .concat(
        statements.map((line) => `  ${line};`),
        ['  return total;', '}'],
      )
      .join('\r');
    const python = ['# first', 'def f(total):']
      .concat(
        statements.map((line) => `    ${line}`),
        ['    return total'],
      )
      .join('\r');
    const java = ['// first', 'class S {', '  int f(int total) {']
      .concat(
        statements.map((line) => `    ${line};`),
        ['    return total;', '  }', '}'],
      )
      .join('\r');
    const run = await checkBranch('line-breaks', {
      'src/cr.ts': script,
      'src/separators.ts': script.replaceAll('\r', '\u2028'),
      'src/cr.py': python,
      'src/Cr.java': java,
    });
    const details = Object.fromEntries(
      run.items.filter((item) => item.category === 'loc').map((item) => [item.path, item.detail]),
    );
    expect(details).toEqual({
      'src/cr.ts': 'adds 33 code lines',
      'src/separators.ts': 'adds 33 code lines',
      'src/cr.py': 'adds 32 code lines',
      'src/Cr.java': 'adds 35 code lines',
    });
  });

  it('counts the lines of text in a language it does not parse however they end', async () => {
    // 2,000 one-line C functions: 80 KB, whose size alone would be 20 units.
    const lines = Array.from({ length: 2000 }, (_, i) => `int f${i}(int x) { return x + ${i}; }`);
    const run = await checkBranch('text-line-breaks', {
      'src/lf.c': `${lines.join('\n')}\n`,
      'src/crlf.c': `${lines.join('\r\n')}\r\n`,
      'src/cr.c': `${lines.join('\r')}\r`,
    });
    const details = Object.fromEntries(
      run.items.filter((item) => item.category === 'loc').map((item) => [item.path, item.detail]),
    );
    expect(details).toEqual({
      'src/lf.c': 'adds 2000 lines',
      'src/crlf.c': 'adds 2000 lines',
      'src/cr.c': 'adds 2000 lines',
    });
    expect(run.verdict).toBe('block');
  });

  it('keeps an image renamed .ts binary: priced by its size, never parsed', async () => {
    const run = await checkBranch('image', { 'src/logo.ts': PNG });
    expect(run.items.find((item) => item.path === 'src/logo.ts')).toEqual({
      category: 'loc',
      points: 3,
      path: 'src/logo.ts',
      detail: 'binary file of 8.8 KiB: 3 size units',
    });
    expect(run.findings.filter((finding) => finding.location?.path === 'src/logo.ts')).toEqual([]);
  });
});
