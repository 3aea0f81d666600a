import { describe, expect, it } from '@jest/globals';
import { unifiedDiff } from '../../../src/reflexion/edit-forms.js';
import { staticOnlyClassPass } from '../../../src/reflexion/passes/static-only-class.js';
import type { Proposal } from '../../../src/reflexion/proposal.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const headlines = (proposals: readonly Proposal[]) =>
  proposals.map(({ title, path, line }) => ({ title, path, line }));

const MATH_UTIL = lines(
  "import { log } from './log.js';",
  '',
  '/** Arithmetic helpers. */',
  'export class MathUtil {',
  '  static readonly PI = 3.14;',
  '  /** How many numbers were doubled. */',
  '  static calls = 0;',
  '  static readonly TAU = MathUtil.PI * 2;',
  '',
  '  /** Doubles a number. */',
  '  static double(n: number): number {',
  '    MathUtil.calls++;',
  '    return n * 2;',
  '  }',
  '',
  '  static area(r: number): number {',
  '    return (this.PI * this.double(r) * r) / 2;',
  '  }',
  '',
  '  private static format(n: number): string {',
  '    return n + ` cm',
  '  ²`;',
  '  }',
  '',
  '  static async describe(r: number): Promise<string> {',
  '    log(MathUtil.TAU);',
  '    return MathUtil.format(MathUtil.area(r));',
  '  }',
  '}',
  '',
  'export const twice = (n: number): number => MathUtil.double(n);',
);

describe('static-only-class', () => {
  const files = {
    'src/log.ts': lines(
      'export function log(value: unknown): void {',
      '  console.log(value);',
      '}',
    ),
    'src/math-util.ts': MATH_UTIL,
    'src/main.ts': lines(
      "import { MathUtil } from './math-util.js';",
      "import { twice } from './math-util.js';",
      'MathUtil.describe(2).then(() => twice(MathUtil.PI));',
    ),
    'src/other.ts': lines(
      "import { MathUtil as M } from './math-util.js';",
      'export const four = M.double(2);',
    ),
  };

  it('turns the class into module functions and constants, and its uses into names', () => {
    const proposals = runPass(staticOnlyClassPass, files, ['src/math-util.ts']);
    expect(headlines(proposals)).toEqual([
      {
        title: 'Turn static-only class `MathUtil` into module functions',
        path: 'src/math-util.ts',
        line: 4,
      },
    ]);
    const result = applyEdits(files, proposals[0]?.edits ?? []);
    expect(result['src/math-util.ts']).toBe(
      lines(
        "import { log } from './log.js';",
        '',
        '/** Arithmetic helpers. */',
        'export const PI = 3.14;',
        '/** How many numbers were doubled. */',
        'let calls = 0;',
        'const TAU = PI * 2;',
        '',
        '/** Doubles a number. */',
        'export function double(n: number): number {',
        '  calls++;',
        '  return n * 2;',
        '}',
        '',
        'function area(r: number): number {',
        '  return (PI * double(r) * r) / 2;',
        '}',
        '',
        'function format(n: number): string {',
        '  return n + ` cm',
        '  ²`;',
        '}',
        '',
        'export async function describe(r: number): Promise<string> {',
        '  log(TAU);',
        '  return format(area(r));',
        '}',
        '',
        'export const twice = (n: number): number => double(n);',
      ),
    );
    expect(result['src/main.ts']).toBe(
      lines(
        "import { PI, describe } from './math-util.js';",
        "import { twice } from './math-util.js';",
        'describe(2).then(() => twice(PI));',
      ),
    );
    expect(result['src/other.ts']).toBe(
      lines("import { double } from './math-util.js';", 'export const four = double(2);'),
    );
    expect(unifiedDiff(proposals[0]?.edits ?? [])).toMatchSnapshot();
  });

  const shape = (body: string, use = 'Util.a();') => ({
    'src/util.ts': lines('export class Util {', body, '}'),
    'src/main.ts': lines("import { Util } from './util.js';", use),
  });

  it('exports only what other files use, and nothing from a class its file keeps to itself', () => {
    const single = shape('  static a(): void {}');
    const [proposal] = runPass(staticOnlyClassPass, single, ['src/util.ts']);
    expect(applyEdits(single, proposal?.edits ?? [])).toEqual({
      'src/util.ts': lines('export function a(): void {}'),
      'src/main.ts': lines("import { a } from './util.js';", 'a();'),
    });
    const local = {
      'src/util.ts': lines(
        'class Util {',
        '  static a = 1;',
        '  static b(): () => unknown {',
        '    return function (this: unknown) {',
        '      return this;',
        '    };',
        '  }',
        '}',
        'export const f = Util.b();',
        'export const g = Util.a;',
      ),
    };
    const [own] = runPass(staticOnlyClassPass, local);
    expect(applyEdits(local, own?.edits ?? [])['src/util.ts']).toBe(
      lines(
        'const a = 1;',
        'function b(): () => unknown {',
        '  return function (this: unknown) {',
        '    return this;',
        '  };',
        '}',
        'export const f = b();',
        'export const g = a;',
      ),
    );
  });

  it.each([
    [
      'a class with a static and an instance member',
      shape('  static a(): void {}\n  b(): void {}'),
    ],
    [
      'a class passed as a value',
      shape('  static a(): void {}', 'function register(value: unknown): void {}\nregister(Util);'),
    ],
    ['a class used with `new`', shape('  static a(): void {}', 'new Util();')],
    [
      'a class that extends another',
      {
        'src/util.ts': lines(
          'class Base {}',
          'export class Util extends Base {',
          '  static a(): void {}',
          '}',
        ),
        'src/main.ts': lines("import { Util } from './util.js';", 'Util.a();'),
      },
    ],
    [
      'a member named like a function of an importing file',
      shape('  static a(): void {}', 'function a(): void {}\nUtil.a();\na();'),
    ],
    [
      'a member named like a parameter that would shadow it',
      shape(
        '  static a = 1;\n  static b(a: number): number {\n    return Util.a + a;\n  }',
        'Util.b(1);',
      ),
    ],
    [
      'a class used in a type',
      shape('  static a(): void {}', 'const u: typeof Util = Util;\nu.a();'),
    ],
    ['a class that uses `this` itself', shape('  static a(): unknown {\n    return this;\n  }')],
    [
      'a field set after an initializer reads it',
      shape('  static a = Util.b;\n  static b = 1;', 'Util.a;'),
    ],
    [
      'a field initialized by calling a method',
      shape('  static a = Util.b();\n  static b(): number {\n    return 1;\n  }', 'Util.a;'),
    ],
    ['a field assigned from another file', shape('  static a = 1;', 'Util.a = 2;')],
    ['a reserved member name', shape('  static delete(): void {}', 'Util.delete();')],
    ['a getter', shape('  static get a(): number {\n    return 1;\n  }', 'Util.a;')],
    [
      'a #private member',
      shape('  static #b = 1;\n  static a(): number {\n    return Util.#b;\n  }'),
    ],
    [
      'a default export',
      {
        'src/util.ts': lines('export default class Util {', '  static a(): void {}', '}'),
        'src/main.ts': lines("import Util from './util.js';", 'Util.a();'),
      },
    ],
    [
      'an exported class of an entry point',
      {
        'src/index.ts': lines('export class Util {', '  static a(): void {}', '}'),
      },
    ],
  ])('leaves alone %s', (_name, fixture: Record<string, string>) => {
    const scope = Object.keys(fixture).filter((path) => path !== 'src/main.ts');
    expect(runPass(staticOnlyClassPass, fixture, scope)).toEqual([]);
  });
});
