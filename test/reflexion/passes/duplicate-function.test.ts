import { describe, expect, it } from '@jest/globals';
import { duplicateFunctionPass } from '../../../src/reflexion/passes/duplicate-function.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

const DATES = [
  'export function formatDate(date: Date): string {',
  '  return date.toISOString().slice(0, 10);',
  '}',
  '',
].join('\n');

describe('duplicate-function', () => {
  it('deletes a copy in another file and imports the one declared first', () => {
    const files = {
      'src/dates.ts': DATES,
      'src/report.ts': [
        "import { title } from './title.js';",
        '',
        '/** The day of a date. */',
        'function formatDate(date: Date): string {',
        '  // the day only',
        '  return date.toISOString()',
        '    .slice(0, 10);',
        '}',
        '',
        'export function line(date: Date): string {',
        "  return title + ': ' + formatDate(date);",
        '}',
        '',
      ].join('\n'),
      'src/title.ts': "export const title = 'Report';\n",
    };
    const proposals = runPass(duplicateFunctionPass, files);
    expect(proposals.map(({ title, path, line }) => ({ title, path, line }))).toEqual([
      {
        title: 'Merge duplicate `formatDate` into `src/dates.ts`',
        path: 'src/report.ts',
        line: 4,
      },
    ]);
    expect(applyEdits(files, proposals[0]?.edits ?? [])).toEqual({
      ...files,
      'src/report.ts': [
        "import { title } from './title.js';",
        "import { formatDate } from './dates.js';",
        '',
        'export function line(date: Date): string {',
        "  return title + ': ' + formatDate(date);",
        '}',
        '',
      ].join('\n'),
    });
  });

  it('moves the copy’s importers to the one that stays, exporting it', () => {
    const files = {
      'src/a.ts': [
        'function twice(n: number) { return n * 2; }',
        'export const two = twice(1);',
        '',
      ].join('\n'),
      'src/b.ts': 'export function double(n: number) { return n * 2; }\n',
      'src/c.ts': "import { double } from './b.js';\nexport const four = double(2);\n",
      'src/d.ts': [
        "import { double as times2, half } from './b2.js';",
        'export const six = times2(3) + half;',
        '',
      ].join('\n'),
      'src/b2.ts': [
        'export const half = 0.5;',
        'export function double(n: number) { return n * 2; }',
        '',
      ].join('\n'),
    };
    const proposals = runPass(duplicateFunctionPass, files);
    expect(proposals.map(({ title }) => title)).toEqual([
      'Merge duplicate `double` into `twice` in `src/a.ts`',
      'Merge duplicate `double` into `twice` in `src/a.ts`',
    ]);
    const [fromB, fromB2] = proposals;
    expect(applyEdits(files, fromB?.edits ?? [])).toEqual({
      ...files,
      'src/a.ts': [
        'export function twice(n: number) { return n * 2; }',
        'export const two = twice(1);',
        '',
      ].join('\n'),
      'src/b.ts': undefined,
      'src/c.ts': "import { twice } from './a.js';\nexport const four = twice(2);\n",
    });
    expect(applyEdits(files, fromB2?.edits ?? [])['src/d.ts']).toBe(
      [
        "import { half } from './b2.js';",
        "import { twice as times2 } from './a.js';",
        '',
        'export const six = times2(3) + half;',
        '',
      ].join('\n'),
    );
  });

  it('merges two copies in one file, renaming the copy’s uses and imports', () => {
    const files = {
      'src/a.ts': [
        'export function sum(a: number, b: number) {',
        '  return a + b;',
        '}',
        '',
        'export function add(a: number, b: number) {',
        '  return a + b; // plus',
        '}',
        '',
        'export const three = add(1, 2);',
        '',
      ].join('\n'),
      'src/b.ts': "import { add } from './a.js';\nexport const five = add(2, 3);\n",
      'src/c.ts':
        "import { add as plus, sum } from './a.js';\nexport const six = plus(3, 3) + sum(0, 0);\n",
    };
    const proposals = runPass(duplicateFunctionPass, files);
    expect(proposals.map(({ title, path, line }) => [title, path, line])).toEqual([
      ['Merge duplicate `add` into `sum` in `src/a.ts`', 'src/a.ts', 5],
    ]);
    expect(applyEdits(files, proposals[0]?.edits ?? [])).toEqual({
      'src/a.ts': [
        'export function sum(a: number, b: number) {',
        '  return a + b;',
        '}',
        '',
        'export const three = sum(1, 2);',
        '',
      ].join('\n'),
      'src/b.ts': "import { sum } from './a.js';\nexport const five = sum(2, 3);\n",
      'src/c.ts':
        "import { sum, sum as plus } from './a.js';\nexport const six = plus(3, 3) + sum(0, 0);\n",
    });
  });

  it('drops the imports only the deleted copy used', () => {
    const files = {
      'src/digest.ts':
        'export function digest(text: string) { return text.length.toString(16); }\n',
      'src/hash.ts': [
        "import { digest } from './digest.js';",
        'export function sha(text: string) {',
        '  return digest(text.trim());',
        '}',
        '',
      ].join('\n'),
      'src/join.ts': 'export function join(a: string, b: string) { return a + b; }\n',
      'src/policy-cache.ts': [
        "import { digest } from './digest.js';",
        "import { join } from './join.js';",
        '',
        "export const key = join('a', checksum('b'));",
        '',
        'function checksum(text: string) {',
        '  return digest(text.trim());',
        '}',
        '',
      ].join('\n'),
    };
    const proposals = runPass(duplicateFunctionPass, files, ['src/policy-cache.ts']);
    expect(applyEdits(files, proposals[0]?.edits ?? [])['src/policy-cache.ts']).toBe(
      [
        "import { join } from './join.js';",
        "import { sha } from './hash.js';",
        '',
        "export const key = join('a', sha('b'));",
        '',
      ].join('\n'),
    );
  });

  it('removes only copies in scope', () => {
    const files = {
      'src/dates.ts': DATES,
      'src/other.ts': `${DATES}export const today = formatDate(new Date());\n`,
    };
    expect(runPass(duplicateFunctionPass, files, ['src/dates.ts'])).toEqual([]);
    expect(runPass(duplicateFunctionPass, files, ['src/other.ts'])).toHaveLength(1);
  });

  it('refuses two functions that differ by one literal', () => {
    const files = {
      'src/a.ts': 'export function pad(s: string) { return s.padStart(2, "0"); }\n',
      'src/b.ts': 'export function pad(s: string) { return s.padStart(3, "0"); }\n',
    };
    expect(runPass(duplicateFunctionPass, files)).toEqual([]);
  });

  it('refuses identical functions where one uses `this`', () => {
    const files = {
      'src/a.ts': [
        'export function name(this: { name: string }) { return this.name; }',
        'export function label(this: { name: string }) { return this.name; }',
        '',
      ].join('\n'),
      'src/b.ts':
        'export function self() { return this; }\nexport function me() { return this; }\n',
    };
    expect(runPass(duplicateFunctionPass, files)).toEqual([]);
  });

  it('refuses identical generic functions', () => {
    const files = {
      'src/a.ts': 'export function first<T>(items: T[]) { return items[0]; }\n',
      'src/b.ts': 'export function first<T>(items: T[]) { return items[0]; }\n',
    };
    expect(runPass(duplicateFunctionPass, files)).toEqual([]);
  });

  it('refuses the same text naming different things', () => {
    const files = {
      'src/a.ts':
        'const cache = new Map<string, number>();\nexport function get(k: string) { return cache.get(k); }\n',
      'src/b.ts':
        'const cache = new Map<string, number>();\nexport function get(k: string) { return cache.get(k); }\n',
    };
    expect(runPass(duplicateFunctionPass, files)).toEqual([]);
  });

  it.each([
    [
      'a copy exported from an index file',
      { 'src/index.ts': 'export function one() { return 1; }\n' },
    ],
    [
      'a copy with a property set on it',
      { 'src/z.ts': 'export function one() { return 1; }\none.x = 2;\n' },
    ],
    [
      'a copy compared by identity',
      { 'src/z.ts': 'export function one() { return 1; }\nexport const same = one === one;\n' },
    ],
    [
      'a keeper whose name means something else where the copy is used',
      {
        'src/z.ts':
          'function two() { return 1; }\nexport function run(uno: number) { return two() + uno; }\n',
      },
    ],
    [
      'an import that would close a cycle',
      {
        'src/a.ts':
          "import { b } from './z.js';\nexport function uno() { return 1; }\nexport const a = b;\n",
        'src/z.ts': 'export function two() { return 1; }\nexport const b = two();\n',
      },
    ],
    ['a default export', { 'src/z.ts': 'export default function two() { return 1; }\n' }],
  ])('refuses %s', (_, extra) => {
    const files = {
      'src/a.ts': 'export function uno() { return 1; }\nexport const a = 1;\n',
      ...extra,
    };
    expect(runPass(duplicateFunctionPass, files)).toEqual([]);
  });
});
