import { describe, expect, it } from '@jest/globals';
import { inlineTrivialFunctionPass } from '../../../src/reflexion/passes/inline-trivial-function.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

/** The one file the pass changed, after its only proposal. */
function inlined(source: string): string | undefined {
  const files = { 'src/a.ts': source };
  const proposals = runPass(inlineTrivialFunctionPass, files);
  expect(proposals).toHaveLength(1);
  const [proposal] = proposals;
  return proposal && applyEdits(files, proposal.edits)['src/a.ts'];
}

function proposalsFor(source: string): number {
  return runPass(inlineTrivialFunctionPass, { 'src/a.ts': source }).length;
}

describe('inline-trivial-function', () => {
  it('inlines a function declaration into its only call', () => {
    const files = {
      'src/a.ts': [
        'function double(n: number): number {',
        '  return n * 2;',
        '}',
        '',
        'export function area(width: number): number {',
        '  return double(width) + 1;',
        '}',
        '',
      ].join('\n'),
    };
    const proposals = runPass(inlineTrivialFunctionPass, files);
    expect(proposals.map(({ title, path, line }) => ({ title, path, line }))).toEqual([
      { title: 'Inline `double` into its only caller', path: 'src/a.ts', line: 1 },
    ]);
    expect(applyEdits(files, proposals[0]?.edits ?? [])).toEqual({
      'src/a.ts': [
        'export function area(width: number): number {',
        '  return (width * 2) + 1;',
        '}',
        '',
      ].join('\n'),
    });
  });

  it('inlines a const arrow, parenthesising substituted expressions', () => {
    expect(
      inlined(
        [
          'const sum = (a: number, b: number) => a * b;',
          'export const total = (x: number) => sum(x + 1, 3);',
          '',
        ].join('\n'),
      ),
    ).toBe(['export const total = (x: number) => ((x + 1) * 3);', ''].join('\n'));
  });

  it('substitutes a call argument read once, first, and a shorthand property', () => {
    expect(
      inlined(
        [
          'declare function next(): number;',
          'function wrap(value: number) {',
          '  return { value, at: 0 };',
          '}',
          'export const wrapped = wrap(next());',
          '',
        ].join('\n'),
      ),
    ).toBe(
      [
        'declare function next(): number;',
        'export const wrapped = ({ value: next(), at: 0 });',
        '',
      ].join('\n'),
    );
  });

  it('substitutes a call argument read after operators and constants', () => {
    expect(
      inlined(
        [
          'declare function next(): string;',
          "const quote = (text: string) => '> ' + text.trim();",
          'export const quoted = quote(next());',
          '',
        ].join('\n'),
      ),
    ).toBe(
      [
        'declare function next(): string;',
        "export const quoted = ('> ' + next().trim());",
        '',
      ].join('\n'),
    );
  });

  it('moves a body over lines to the call’s indentation', () => {
    expect(
      inlined(
        [
          'function sections(title: string) {',
          '  return [',
          '    title,',
          "    'body',",
          '  ];',
          '}',
          'export function render(title: string) {',
          '  if (title) {',
          '    return sections(title);',
          '  }',
          '  return [];',
          '}',
          '',
        ].join('\n'),
      ),
    ).toBe(
      [
        'export function render(title: string) {',
        '  if (title) {',
        '    return [',
        '      title,',
        "      'body',",
        '    ];',
        '  }',
        '  return [];',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('drops an import only the inlined function’s signature used', () => {
    const files = {
      'src/a.ts': [
        "import type { Size } from './size.js';",
        "import { unit } from './size.js';",
        'const box = { width: 2, height: 3 };',
        'function area(size: Size) {',
        '  return size.width * size.height * unit;',
        '}',
        'export const total = area(box);',
        '',
      ].join('\n'),
      'src/size.ts':
        'export interface Size { width: number; height: number }\nexport const unit = 1;\n',
    };
    const proposals = runPass(inlineTrivialFunctionPass, files);
    expect(applyEdits(files, proposals[0]?.edits ?? [])['src/a.ts']).toBe(
      [
        "import { unit } from './size.js';",
        'const box = { width: 2, height: 3 };',
        'export const total = (box.width * box.height * unit);',
        '',
      ].join('\n'),
    );
  });

  it('parenthesises a number read as an object', () => {
    expect(
      inlined(
        ['const fixed = (n: number) => n.toFixed(2);', 'export const one = fixed(1);', ''].join(
          '\n',
        ),
      ),
    ).toBe('export const one = (1).toFixed(2);\n');
    expect(
      inlined(
        ['const same = (n: number) => n;', 'export const two = same(2).toFixed(1);', ''].join('\n'),
      ),
    ).toBe('export const two = (2).toFixed(1);\n');
  });

  it('duplicates a constant argument a parameter reads twice', () => {
    expect(
      inlined(
        [
          'const square = (n: number) => n * n;',
          'const side = 4;',
          'export const area = square(side);',
          '',
        ].join('\n'),
      ),
    ).toBe(['const side = 4;', 'export const area = (side * side);', ''].join('\n'));
  });

  it('refuses a function used twice', () => {
    expect(
      proposalsFor(
        [
          'function double(n: number) { return n * 2; }',
          'export const a = double(1);',
          'export const b = double(2);',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it('refuses a recursive function', () => {
    expect(
      proposalsFor(
        [
          'function fact(n: number): number { return n <= 1 ? 1 : n * fact(n - 1); }',
          'export const six = fact(3);',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it('refuses a function using `this`', () => {
    expect(
      proposalsFor(
        [
          'function label(this: { name: string }, prefix: string) { return prefix + this.name; }',
          "export const shown = label.call({ name: 'a' }, '> ');",
          'function self(n: number) { return this === undefined ? n : 0; }',
          'export const zero = self(1);',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it('refuses a parameter read twice when its argument is a call', () => {
    expect(
      proposalsFor(
        [
          'declare function next(): number;',
          'function square(n: number) { return n * n; }',
          'export const area = square(next());',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it('refuses an exported function', () => {
    expect(
      proposalsFor(
        [
          'export function double(n: number) { return n * 2; }',
          'export const two = double(1);',
          'function triple(n: number) { return n * 3; }',
          'export { triple };',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it.each([
    [
      'an unused parameter, whose argument would not run at all',
      'declare function next(): number;\nfunction one(n: number) { return 1; }\nexport const x = one(next());',
    ],
    [
      'a read behind `&&`, whose argument would run only sometimes',
      'declare function next(): boolean;\nfunction both(a: boolean, b: boolean) { return a && b; }\nexport const x = both(true, next());',
    ],
    [
      'arguments read in the other order',
      'declare function next(): number;\nfunction minus(a: number, b: number) { return b - a; }\nexport const x = minus(next(), next());',
    ],
    [
      'a body that calls something before reading the argument',
      'declare function next(): number;\ndeclare function tick(): number;\nfunction after(a: number) { return tick() + a; }\nexport const x = after(next());',
    ],
    [
      'an argument the body could reassign before reading it',
      'let count = 0;\nfunction bump() { count++; return 1; }\nfunction add(a: number) { return bump() + a; }\nexport const x = add(count);',
    ],
    [
      'a method reference that would be called on its object',
      'const box = { f() { return 1; } };\nfunction run(fn: () => number) { return fn(); }\nexport const x = run(box.f);',
    ],
  ])('refuses %s', (_, source) => {
    expect(proposalsFor(source)).toBe(0);
  });

  it('refuses when a name of the body means something else at the call', () => {
    expect(
      proposalsFor(
        [
          'const rate = 2;',
          'function scale(n: number) { return n * rate; }',
          'export function run(rate: number) { return scale(rate); }',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it('refuses an argument a name declared in the body would capture', () => {
    expect(
      proposalsFor(
        [
          'function shift(n: number) { return [1].map((item) => item + n); }',
          'const item = 2;',
          'export const shifted = shift(item);',
        ].join('\n'),
      ),
    ).toBe(0);
  });

  it('refuses async, generic and overloaded functions, unusual parameters, and methods', () => {
    const refused = [
      'async function one(n: number) { return n; }\nexport const x = one(1);',
      'function id<T>(v: T) { return v; }\nexport const x = id(1);',
      'function id(v: number): number;\nfunction id(v: number) { return v; }\nexport const x = id(1);',
      'function inc(v: number, by = 1) { return v + by; }\nexport const x = inc(1, 2);',
      'function all(...xs: number[]) { return xs.length; }\nexport const x = all(1);',
      'function first({ a }: { a: number }) { return a; }\nexport const x = first({ a: 1 });',
      'function maybe(v?: number) { return v; }\nexport const x = maybe(1);',
      'export class C { twice(n: number) { return n * 2; } run() { return this.twice(1); } }',
    ];
    for (const source of refused) expect(proposalsFor(source)).toBe(0);
  });

  it('looks only at scoped files', () => {
    const files = {
      'src/a.ts': 'function one() { return 1; }\nexport const x = one();\n',
      'src/b.ts': 'function two() { return 2; }\nexport const y = two();\n',
    };
    const proposals = runPass(inlineTrivialFunctionPass, files, ['src/b.ts']);
    expect(proposals.map(({ path, title }) => [path, title])).toEqual([
      ['src/b.ts', 'Inline `two` into its only caller'],
    ]);
    expect(applyEdits(files, proposals[0]?.edits ?? [])['src/b.ts']).toBe('export const y = 2;\n');
  });
});
