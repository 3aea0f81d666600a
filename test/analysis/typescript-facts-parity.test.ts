import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { languageOf, viaOxc, viaTypeScript } from './support/typescript-extractors.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/analysis/ts', import.meta.url));

/**
 * Broken on purpose. The parsers recover from a syntax error differently (oxc not at all), so
 * their partial facts may differ: only the line counts (which depend on comments, not on the
 * recovery) must agree, and each must report the error. A run reads such a file again with
 * TypeScript's parser, whose facts stand (test/scan/fact-parsers.test.ts).
 */
const BROKEN = new Set(['syntax-error.ts']);

const fixtures = readdirSync(FIXTURES).sort();

/**
 * The same file saved on Windows by an editor that writes a byte-order mark (not before a `#!`
 * line, which must open the file: TypeScript rejects a BOM there).
 */
const asCrlfWithBom = (text: string): string => {
  const bom = text.startsWith('\uFEFF') || text.startsWith('#!') ? '' : '\uFEFF';
  return `${bom}${text.replace(/\r?\n/g, '\r\n')}`;
};

describe('TypeScript/JavaScript facts: TypeScript and oxc agree', () => {
  it('has a corpus covering TypeScript, TSX, JavaScript and a broken file', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(12);
    expect(new Set(fixtures.map(languageOf))).toEqual(new Set(['typescript', 'tsx', 'javascript']));
    expect(fixtures.filter((file) => BROKEN.has(file))).toEqual([...BROKEN]);
  });

  it('reads every loader of require-aliases.js, so that agreeing is not agreeing on nothing', async () => {
    const text = readFileSync(join(FIXTURES, 'require-aliases.js'), 'utf8');
    for (const extract of [viaTypeScript, viaOxc]) {
      const facts = await extract(text, 'javascript');
      expect(facts.imports.map((fact) => fact.specifier)).toEqual([
        'child_process',
        './again.js',
        './main.js',
        './main-module.js',
        'node:module',
        './made.js',
      ]);
    }
  });

  describe.each(fixtures)('%s', (file) => {
    const text = readFileSync(join(FIXTURES, file), 'utf8');
    const language = languageOf(file);

    it('gives equal facts from both parsers', async () => {
      const fromTypeScript = await viaTypeScript(text, language);
      const fromOxc = await viaOxc(text, language);
      if (BROKEN.has(file)) {
        expect(fromOxc.lines).toEqual(fromTypeScript.lines);
        expect(fromTypeScript.diagnostics.length).toBeGreaterThanOrEqual(1);
        expect(fromOxc.diagnostics.length).toBeGreaterThanOrEqual(1);
      } else {
        expect(fromTypeScript.diagnostics).toEqual([]);
        expect(fromOxc).toEqual(fromTypeScript);
      }
    });

    it('gives the same facts with CRLF line endings and a BOM', async () => {
      const original = await viaTypeScript(text, language);
      const windows = asCrlfWithBom(text);
      const fromTypeScript = await viaTypeScript(windows, language);
      const fromOxc = await viaOxc(windows, language);
      expect(fromTypeScript.lines).toEqual(original.lines);
      expect(fromOxc.lines).toEqual(original.lines);
      if (!BROKEN.has(file)) {
        expect(fromTypeScript).toEqual(original);
        expect(fromOxc).toEqual(original);
      }
    });
  });
});
