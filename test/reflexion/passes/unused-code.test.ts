import { describe, expect, it } from '@jest/globals';
import { unifiedDiff } from '../../../src/reflexion/edit-forms.js';
import { unusedCodePass } from '../../../src/reflexion/passes/unused-code.js';
import type { Proposal } from '../../../src/reflexion/proposal.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

/** Proposals without their edits: what a reader sees first. */
const headlines = (proposals: readonly Proposal[]) =>
  proposals.map(({ title, path, line }) => ({ title, path, line }));

/** The file at `path` once `proposal` applies. */
const fileAfter = (files: Record<string, string>, proposal: Proposal | undefined, path: string) =>
  applyEdits(files, proposal?.edits ?? [])[path];

const LIBRARY = {
  'src/lib.ts': lines(
    'export const a = (): number => 1;',
    'export const b = 2;',
    'export const c = 3;',
  ),
  'src/def.ts': lines('export default function def(): number {', '  return 0;', '}'),
  'src/setup.ts': lines('export const ready = true;'),
};

describe('unused-code: imports, locals and private members', () => {
  const files = {
    ...LIBRARY,
    'src/main.ts': lines(
      "import { Counter, run } from './x.js';",
      'new Counter().increment() + run();',
    ),
    'src/x.ts': lines(
      "import { a, b, c } from './lib.js';",
      "import def from './def.js';",
      "import * as lib from './lib.js';",
      "import './setup.js';",
      '',
      'export function run(): number {',
      '  const unusedLocal = { k: [1, -2], f: () => 3 };',
      '  function unusedHelper(): number {',
      '    const inner = 1;',
      '    return inner;',
      '  }',
      '  const kept = a();',
      '  return kept + b;',
      '}',
      '',
      'export class Counter {',
      '  private count = 0;',
      '  private stale = 1;',
      '  #secret = 2;',
      '  private helper(): number {',
      '    return 3;',
      '  }',
      '  increment(): number {',
      '    this.count += 1;',
      '    return this.count;',
      '  }',
      '}',
    ),
  };

  it('removes all of a file’s in one proposal, keeping side-effect imports', () => {
    const proposals = runPass(unusedCodePass, files, ['src/x.ts']);
    expect(headlines(proposals)).toEqual([
      {
        title:
          'Remove 3 unused imports, 2 unused locals and 3 unused private members from `src/x.ts`',
        path: 'src/x.ts',
        line: 1,
      },
    ]);
    expect(proposals[0]?.edits.map((edit) => edit.path)).toEqual(['src/x.ts']);
    expect(fileAfter(files, proposals[0], 'src/x.ts')).toBe(
      lines(
        "import { a, b } from './lib.js';",
        "import './setup.js';",
        '',
        'export function run(): number {',
        '  const kept = a();',
        '  return kept + b;',
        '}',
        '',
        'export class Counter {',
        '  private count = 0;',
        '',
        '  increment(): number {',
        '    this.count += 1;',
        '    return this.count;',
        '  }',
        '}',
      ),
    );
  });

  it('keeps a default import when only the named ones go', () => {
    const mixed = {
      'src/lib.ts': lines('export default 1;', 'export const two = 2;', 'export const three = 3;'),
      'src/main.ts': lines("import { total } from './y.js';", 'total();'),
      'src/y.ts': lines(
        "import one, { two, three } from './lib.js';",
        'export function total(): number {',
        '  return one + three;',
        '}',
      ),
    };
    const proposals = runPass(unusedCodePass, mixed, ['src/y.ts']);
    expect(headlines(proposals)).toEqual([
      { title: 'Remove 1 unused import from `src/y.ts`', path: 'src/y.ts', line: 1 },
    ]);
    expect(fileAfter(mixed, proposals[0], 'src/y.ts')).toBe(
      lines(
        "import one, { three } from './lib.js';",
        'export function total(): number {',
        '  return one + three;',
        '}',
      ),
    );
  });

  it('keeps the imports that make a file a module, not a script', () => {
    const script = {
      ...LIBRARY,
      'src/z.ts': lines("import { a } from './lib.js';", 'const count = 1;', 'console.log(count);'),
    };
    expect(runPass(unusedCodePass, script, ['src/z.ts'])).toEqual([]);
  });

  it.each([
    [
      'an import used only as a type',
      {
        'src/shape.ts': lines('export interface Shape {', '  readonly w: number;', '}'),
        'src/x.ts': lines(
          "import type { Shape } from './shape.js';",
          "import { Shape as Same } from './shape.js';",
          'export function area(shape: Shape, same: Same): number {',
          '  return shape.w + same.w;',
          '}',
        ),
        'src/main.ts': lines("import { area } from './x.js';", 'area({ w: 1 }, { w: 2 });'),
      },
    ],
    [
      'an import re-exported with `export { name }`',
      {
        ...LIBRARY,
        'src/x.ts': lines("import { a } from './lib.js';", 'export { a };'),
        'src/main.ts': lines("import { a } from './x.js';", 'a();'),
      },
    ],
    [
      'a local whose initializer calls a function',
      {
        'src/x.ts': lines(
          'function compute(): number {',
          '  return 1;',
          '}',
          'export function f(): number {',
          '  const unused = compute();',
          '  let later = { n: compute() };',
          '  return 1;',
          '}',
        ),
        'src/main.ts': lines("import { f } from './x.js';", 'f();'),
      },
    ],
    [
      'a private member read as this[name] with its name as a string literal',
      {
        'src/x.ts': lines(
          'export class S {',
          '  private helper(): number {',
          '    return 1;',
          '  }',
          '  private other = 2;',
          '  run(): number {',
          "    const key = 'other';",
          "    return this['helper']() + this[key];",
          '  }',
          '}',
        ),
        'src/main.ts': lines("import { S } from './x.js';", 'new S().run();'),
      },
    ],
    [
      'a decorated private member',
      {
        'src/x.ts': lines(
          'function mark(_method: unknown, _context: ClassMethodDecoratorContext): void {}',
          'export class S {',
          '  @mark',
          '  private hidden(): number {',
          '    return 1;',
          '  }',
          '}',
        ),
        'src/main.ts': lines("import { S } from './x.js';", 'new S();'),
      },
    ],
    [
      'a private field of a class that lets `this` go',
      {
        'src/x.ts': lines(
          'export class S {',
          '  private tag = 1;',
          '  toJSON(): string {',
          '    return JSON.stringify({ ...this });',
          '  }',
          '}',
        ),
        'src/main.ts': lines("import { S } from './x.js';", 'new S().toJSON();'),
      },
    ],
  ])('leaves alone %s', (_name, fixture: Record<string, string>) => {
    expect(runPass(unusedCodePass, fixture, ['src/x.ts'])).toEqual([]);
  });
});

describe('unused-code: exports', () => {
  it('removes an export nothing uses, with what only it used', () => {
    const files = {
      'src/text.ts': lines(
        'export function pad(text: string, width: number): string {',
        '  return text.padStart(width);',
        '}',
        "export const keep = 'k';",
      ),
      'src/util.ts': lines(
        "import { pad } from './text.js';",
        "import { keep } from './text.js';",
        '',
        'const WIDTH = 4;',
        '',
        'function format(n: number): string {',
        '  return pad(String(n), WIDTH);',
        '}',
        '',
        'export function used(): string {',
        '  return keep;',
        '}',
        '',
        '/** Formats a number. */',
        'export function unusedFormat(n: number): string {',
        '  return format(n);',
        '}',
      ),
      'src/main.ts': lines("import { used } from './util.js';", 'used();'),
    };
    const proposals = runPass(unusedCodePass, files, ['src/util.ts']);
    expect(headlines(proposals)).toEqual([
      { title: 'Remove unused export `unusedFormat`', path: 'src/util.ts', line: 15 },
    ]);
    expect(unifiedDiff(proposals[0]?.edits ?? [])).toMatchSnapshot();
    expect(fileAfter(files, proposals[0], 'src/util.ts')).toBe(
      lines(
        "import { keep } from './text.js';",
        '',
        'export function used(): string {',
        '  return keep;',
        '}',
      ),
    );
  });

  it('drops only `export` when the file itself uses the declaration', () => {
    const files = {
      'src/limits.ts': lines(
        'export const LIMIT = 3;',
        'export interface Options {',
        '  readonly n: number;',
        '}',
        'export function check(options: Options): boolean {',
        '  return options.n < LIMIT;',
        '}',
      ),
      'src/main.ts': lines("import { check } from './limits.js';", 'check({ n: 1 });'),
    };
    const proposals = runPass(unusedCodePass, files, ['src/limits.ts']);
    // One proposal for the file's exports: one each would re-verify the file once per export.
    expect(headlines(proposals)).toEqual([
      {
        title: 'Stop exporting 2 names `src/limits.ts` uses only itself',
        path: 'src/limits.ts',
        line: 1,
      },
    ]);
    expect(fileAfter(files, proposals[0], 'src/limits.ts')).toBe(
      files['src/limits.ts']
        .replace('export const LIMIT', 'const LIMIT')
        .replace('export interface', 'interface'),
    );
  });

  it('deletes a file left empty, unless another file imports it', () => {
    const files = {
      'src/old.ts': lines('export type Old = number;'),
      'src/main.ts': lines('export {};'),
    };
    const proposals = runPass(unusedCodePass, files, ['src/old.ts']);
    expect(proposals.map((proposal) => proposal.edits)).toEqual([
      [{ path: 'src/old.ts', before: files['src/old.ts'], after: null }],
    ]);
    const imported = { ...files, 'src/main.ts': lines("import './old.js';") };
    expect(runPass(unusedCodePass, imported, ['src/old.ts'])).toEqual([]);
  });

  // Two exports: removing one leaves the file non-empty, so only the rule under test can refuse.
  const unused = lines(
    'export function lonely(): number {',
    '  return 1;',
    '}',
    "export const other = 'other';",
  );
  it.each([
    ['in an entry point', { 'src/index.ts': unused }, 'src/index.ts'],
    ['under bin/', { 'bin/tool.ts': unused }, 'bin/tool.ts'],
    [
      'in a generated file',
      { 'src/util.ts': `// Generated by scripts/generate.mjs. Do not edit.\n${unused}` },
      'src/util.ts',
    ],
    [
      'used by a dynamic import of its file',
      {
        'src/plugin.ts': unused,
        'src/main.ts': lines("export const load = () => import('./plugin.js');"),
      },
      'src/plugin.ts',
    ],
    [
      'while some dynamic import has a computed target',
      {
        'src/plugin.ts': unused,
        'src/main.ts': lines('export const load = (name: string) => import(name);'),
      },
      'src/plugin.ts',
    ],
    [
      're-exported by a barrel with `export *`',
      {
        'src/util.ts': unused,
        'src/barrel.ts': lines("export * from './util.js';"),
      },
      'src/util.ts',
    ],
    [
      'reached through a namespace import',
      {
        'src/util.ts': unused,
        'src/main.ts': lines("import * as util from './util.js';", 'console.log(util);'),
      },
      'src/util.ts',
    ],
    [
      'whose initializer runs code',
      {
        'src/util.ts': lines(
          'function start(): number {',
          '  return 1;',
          '}',
          'export const started = start();',
        ),
      },
      'src/util.ts',
    ],
    [
      'whose file would become a script without it',
      { 'src/util.ts': lines('export const LIMIT = 1;', 'console.log(LIMIT);') },
      'src/util.ts',
    ],
    [
      'that another file imports',
      {
        'src/util.ts': unused,
        'src/main.ts': lines("import { lonely, other } from './util.js';", 'lonely() + other;'),
      },
      'src/util.ts',
    ],
  ])('leaves alone an export %s', (_name, fixture: Record<string, string>, path: string) => {
    expect(runPass(unusedCodePass, fixture, [path])).toEqual([]);
  });
});
