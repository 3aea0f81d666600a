import { describe, expect, it } from '@jest/globals';
import type { FileFacts, Language } from '../../src/model/facts.js';
import { createFactParser } from '../../src/scan/fact-parsers.js';
import { EXTRACTORS, type ScriptLanguage } from './support/typescript-extractors.js';

/** The facts of every TS/JS extractor, after checking that they agree. */
async function agreedFacts(text: string, language: ScriptLanguage = 'typescript') {
  const [first, ...others] = await Promise.all(
    EXTRACTORS.map(([, extract]) => extract(text, language)),
  );
  if (first === undefined) throw new Error('no extractor');
  for (const other of others) expect(other).toEqual(first);
  return first;
}

const treeSitter = createFactParser('typescript', 0);
const treeSitterFacts = async (language: Language, text: string): Promise<FileFacts> =>
  (await treeSitter)(language, text);

/** Functions as a formatter writes them. */
function formattedModule(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `export function step${i}(input: number[], limit: number): number {\n  let total = 0;\n  for (const value of input) {\n    if (value > limit) total += value * ${i};\n  }\n  return total;\n}\n`,
  ).join('');
}

/** Characters that are neither whitespace nor in a comment. */
function codeCharacters(text: string): number {
  return text.replace(/\s/g, '').length;
}

describe('code size: lines as the parser sees them, whatever the layout', () => {
  it('measures formatted code by its code lines alone', async () => {
    const text = `/** Steps. */\n\n${formattedModule(3)}`;
    const facts = await agreedFacts(text);
    expect(facts.lines).toEqual({ code: 21, comment: 1, blank: 1 });
    expect(facts.loc).toBe(21);
    expect(facts.functions.map((fn) => fn.loc)).toEqual([7, 7, 7]);
  });

  it('counts a class at least one line per method, and its file at least as many', async () => {
    const methods = Array.from({ length: 600 }, (_, i) => `m${i}(){}`).join('');
    const facts = await agreedFacts(`export class Big{${methods}}\n`);
    expect(facts.classes.map(({ name, loc, methods }) => ({ name, loc, methods }))).toEqual([
      { name: 'Big', loc: 600, methods: 600 },
    ]);
    expect(facts.lines.code).toBe(1);
    expect(facts.loc).toBe(600);
  });

  it('counts dense code one line per 64 code characters beyond its first 500', async () => {
    const minified = `${formattedModule(200).replace(/\n\s*/g, '')}\n`;
    const characters = codeCharacters(minified);
    const facts = await agreedFacts(minified);
    expect(facts.lines.code).toBe(1);
    expect(facts.loc).toBe(Math.ceil((characters - 500) / 64));
    const first = minified.slice(0, minified.indexOf('}export') + 1);
    expect(facts.functions[0]?.loc).toBe(
      Math.max(1, Math.ceil((codeCharacters(first) - 500) / 64)),
    );
    // Comments are free however long, and so is the space between tokens.
    const commented = `/* ${'words '.repeat(5_000)}*/ ${minified.replaceAll(';', ';  ')}`;
    expect((await agreedFacts(commented)).loc).toBe(facts.loc);
  });

  it('leaves a one-line function with a long message at one line', async () => {
    const text = `export const fail = () => { throw new Error('${'a'.repeat(400)}'); };\n`;
    const facts = await agreedFacts(text);
    expect([facts.loc, facts.functions[0]?.loc]).toEqual([1, 1]);
  });

  it('measures Python, Go and Java code the same way', async () => {
    const python = `${Array.from({ length: 1000 }, (_, i) => `v${i} = ${i}`).join('; ')}\n`;
    const pythonFacts = await treeSitterFacts('python', python);
    expect(pythonFacts.lines.code).toBe(1);
    expect(pythonFacts.loc).toBe(Math.ceil((codeCharacters(python) - 500) / 64));
    const go = `package p\n${Array.from({ length: 400 }, (_, i) => `func F${i}() int { return ${i} }`).join(';')}\n`;
    const goFacts = await treeSitterFacts('go', go);
    expect(goFacts.lines.code).toBe(2);
    expect(goFacts.loc).toBe(Math.ceil((codeCharacters(go) - 500) / 64));
    const java = `class Big {${Array.from({ length: 700 }, (_, i) => `void m${i}(){}`).join('')}}\n`;
    const javaFacts = await treeSitterFacts('java', java);
    expect([javaFacts.lines.code, javaFacts.classes[0]?.loc]).toEqual([1, 700]);
  });
});

describe('a NUL byte in source text', () => {
  it('is read where the TypeScript parser accepts it: comments, strings, templates, regexes', async () => {
    const text = [
      '// a NUL \0 in a comment',
      '/* and \0 in a block */',
      'export const s = "a\0b";',
      'export const t = `a\0` + s;',
      'export const r = /a\0b/;',
      'export class Kept {',
      '  m(): number {',
      '    return 1;',
      '  }',
      '}',
      '',
    ].join('\n');
    const facts = await agreedFacts(text);
    expect(facts.diagnostics).toEqual([]);
    expect(facts.lines).toEqual({ code: 8, comment: 2, blank: 0 });
    expect(facts.classes.map((cls) => cls.name)).toEqual(['Kept']);
  });

  it('is a syntax error in code, for every parser', async () => {
    for (const [name, extract] of EXTRACTORS) {
      const facts = await extract('export const a = 1;\0\nexport class Kept {}\n', 'typescript');
      expect({ name, errors: facts.diagnostics.length > 0 }).toEqual({ name, errors: true });
    }
  });

  it('is read in a Python, Go or Java comment', async () => {
    const sources: readonly (readonly [Language, string])[] = [
      ['python', '# a NUL \0 here\nclass Kept:\n  pass\n'],
      ['go', 'package p\n// a NUL \0 here\nfunc Kept() {}\n'],
      ['java', '// a NUL \0 here\nclass Kept {}\n'],
    ];
    for (const [language, text] of sources) {
      const facts = await treeSitterFacts(language, text);
      expect({ language, diagnostics: facts.diagnostics, comment: facts.lines.comment }).toEqual({
        language,
        diagnostics: [],
        comment: 1,
      });
    }
  });
});
