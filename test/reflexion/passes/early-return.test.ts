import { describe, expect, it } from '@jest/globals';
import { earlyReturnPass } from '../../../src/reflexion/passes/early-return.js';
import { applyEdits, runPass } from '../support/fixture-project.js';

function lines(...text: string[]): string {
  return `${text.join('\n')}\n`;
}

/** Each proposal's title, line and resulting `src/a.ts`. */
function flattened(source: string): { title: string; line: number; after: string | undefined }[] {
  const files = { 'src/a.ts': source };
  return runPass(earlyReturnPass, files).map(({ title, line, edits }) => ({
    title,
    line,
    after: applyEdits(files, edits)['src/a.ts'],
  }));
}

describe('early-return', () => {
  it('drops every needless else of a function in one proposal, else-if chains included', () => {
    const source = lines(
      'export function parse(text: string): number {',
      "  if (text === '') {",
      '    return 0;',
      '  } else {',
      '    const value = Number(text);',
      '    if (Number.isNaN(value)) {',
      "      throw new Error('not a number: ' + text);",
      '    } else if (value < 0) {',
      '      return -value;',
      '    } else {',
      '      return value;',
      '    }',
      '  }',
      '}',
    );
    expect(flattened(source)).toEqual([
      {
        title: 'Flatten needless nesting in `parse`',
        line: 1,
        after: lines(
          'export function parse(text: string): number {',
          "  if (text === '') {",
          '    return 0;',
          '  }',
          '  const value = Number(text);',
          '  if (Number.isNaN(value)) {',
          "    throw new Error('not a number: ' + text);",
          '  }',
          '  if (value < 0) {',
          '    return -value;',
          '  }',
          '  return value;',
          '}',
        ),
      },
    ]);
  });

  it('returns a boolean condition instead of true and false', () => {
    const source = lines(
      'export function isAdult(age: number): boolean {',
      '  if (age >= 18) {',
      '    return true;',
      '  } else {',
      '    return false;',
      '  }',
      '}',
      'export const isEmpty = (items: string[]) => {',
      '  if (items.length === 0) return true;',
      '  return false;',
      '};',
    );
    expect(flattened(source)).toEqual([
      {
        title: 'Flatten needless nesting in `isAdult`',
        line: 1,
        after: source.replace(
          '  if (age >= 18) {\n    return true;\n  } else {\n    return false;\n  }',
          '  return age >= 18;',
        ),
      },
      {
        title: 'Flatten needless nesting in `isEmpty`',
        line: 8,
        after: source.replace(
          '  if (items.length === 0) return true;\n  return false;',
          '  return items.length === 0;',
        ),
      },
    ]);
  });

  it('joins nested ifs with &&, parenthesising looser operators', () => {
    const source = lines(
      'export class Box {',
      '  open(ready: boolean, count: number | undefined) {',
      '    if (ready) {',
      '      if (count ?? 0) {',
      "        console.log('open');",
      '      }',
      '    }',
      '  }',
      '}',
    );
    expect(flattened(source)).toEqual([
      {
        title: 'Flatten needless nesting in `open`',
        line: 2,
        after: lines(
          'export class Box {',
          '  open(ready: boolean, count: number | undefined) {',
          '    if (ready && (count ?? 0)) {',
          "      console.log('open');",
          '    }',
          '  }',
          '}',
        ),
      },
    ]);
  });

  it('moves up a declaration whose name only a sibling branch uses for its own', () => {
    const source = lines(
      'export function pick(x: number) {',
      '  if (x > 1) {',
      '    const r = 1;',
      '    return r;',
      '  } else {',
      '    const r = 2;',
      '    return r;',
      '  }',
      '}',
    );
    expect(flattened(source).map(({ after }) => after)).toEqual([
      lines(
        'export function pick(x: number) {',
        '  if (x > 1) {',
        '    const r = 1;',
        '    return r;',
        '  }',
        '  const r = 2;',
        '  return r;',
        '}',
      ),
    ]);
  });

  it.each([
    [
      'an else after a branch that does not always return',
      lines(
        'export function f(x: number) {',
        '  if (x > 1) {',
        '    console.log(x);',
        '  } else {',
        '    return 2;',
        '  }',
        '  return 3;',
        '}',
      ),
    ],
    [
      'true and false returned for a number',
      lines('export function f(x: number) {', '  if (x) return true; else return false;', '}'),
    ],
    [
      'a nested if whose outer if has an else',
      lines(
        'export function f(a: boolean, b: boolean) {',
        '  if (a) {',
        '    if (b) {',
        '      return 1;',
        '    }',
        '  } else {',
        '    console.log(a);',
        '  }',
        '  return 3;',
        '}',
      ),
    ],
    [
      'an else block declaring a name the enclosing block declares',
      lines(
        'export function f(x: number) {',
        '  const y = 1;',
        '  if (x > y) {',
        '    return 1;',
        '  } else {',
        '    const y = 2;',
        '    return y;',
        '  }',
        '}',
      ),
    ],
    [
      'an else block declaring a name the branch before it reads from outside',
      lines(
        'const y = 5;',
        'export function f(x: number) {',
        '  if (x > 1) {',
        '    return y;',
        '  } else {',
        '    const y = 2;',
        '    return y;',
        '  }',
        '}',
      ),
    ],
    [
      'a comment inside the else braces',
      lines(
        'export function f(x: number) {',
        '  if (x > 1) {',
        '    return 1;',
        '  } else {',
        '    // the other case',
        '    return 2;',
        '  }',
        '}',
      ),
    ],
    [
      'a comment between nested ifs',
      lines(
        'export function f(a: boolean, b: boolean) {',
        '  if (a) {',
        '    // why',
        '    if (b) {',
        '      return 1;',
        '    }',
        '  }',
        '  return 3;',
        '}',
      ),
    ],
    [
      'a template literal over lines that re-indenting would change',
      lines(
        'export function f(x: number) {',
        '  if (x > 1) {',
        '    return 1;',
        '  } else {',
        '    const text = `one',
        '    two`;',
        '    return text.length;',
        '  }',
        '}',
      ),
    ],
  ])('refuses %s', (_, source) => {
    expect(flattened(source)).toEqual([]);
  });

  it('looks only at scoped files', () => {
    const source = lines(
      'export function f(a: boolean, b: boolean) {',
      '  if (a) { if (b) { return 1; } }',
      '  return 0;',
      '}',
    );
    const files = { 'src/a.ts': source, 'src/b.ts': source };
    expect(runPass(earlyReturnPass, files, ['src/b.ts']).map(({ path }) => path)).toEqual([
      'src/b.ts',
    ]);
  });
});
