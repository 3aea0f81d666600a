import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { languageOf, viaOxc, viaTypeScript } from './support/typescript-extractors.js';

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/**
 * Real code already installed, written by others: CommonJS output (yaml, commander), ES
 * modules (dependency-cruiser) and TypeScript sources (ajv, json-schema-to-typescript).
 */
const CORPUS = [
  'yaml/dist',
  'ajv/lib',
  'dependency-cruiser/src',
  'commander/lib',
  'json-schema-to-typescript/src',
];

const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const DECLARATIONS = /\.d\.[cm]?ts$/;

function sourcesUnder(folder: string): string[] {
  const root = join(NODE_MODULES, folder);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => SOURCE.test(path) && !DECLARATIONS.test(path))
    .sort()
    .map((path) => join(root, path));
}

const corpus = CORPUS.map((folder) => [folder, sourcesUnder(folder)] as const);

describe('TypeScript/JavaScript facts on real code: TypeScript and oxc agree', () => {
  it('has the corpus installed', () => {
    for (const [folder, files] of corpus)
      expect({ folder, files: files.length > 0 }).toEqual({ folder, files: true });
    expect(corpus.reduce((total, [, files]) => total + files.length, 0)).toBeGreaterThan(300);
  });

  it.each(corpus.map(([folder, files]) => [folder, files.length, files] as const))(
    '%s: every one of its %i files',
    async (_, __, files) => {
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const language = languageOf(file);
        const fromTypeScript = await viaTypeScript(text, language);
        const fromOxc = await viaOxc(text, language);
        // A parser may reject what another accepts (see the report); then facts are partial.
        const broken = fromOxc.diagnostics.length + fromTypeScript.diagnostics.length > 0;
        if (broken)
          expect({ file, lines: fromOxc.lines }).toEqual({ file, lines: fromTypeScript.lines });
        else expect({ file, facts: fromOxc }).toEqual({ file, facts: fromTypeScript });
      }
    },
  );

  it('measures every formatted file, class and function by its code lines, as lines alone did', async () => {
    const measuredBySize: string[] = [];
    for (const [, files] of corpus) {
      for (const file of files) {
        const facts = await viaTypeScript(readFileSync(file, 'utf8'), languageOf(file));
        const spans = [...facts.classes, ...facts.functions];
        const within = spans.every(({ span, loc }) => loc <= span.end - span.start + 1);
        if (facts.loc !== facts.lines.code || !within) measuredBySize.push(file);
      }
    }
    // dependency-cruiser's JSON-schema validators are generated onto one line: minified code.
    expect(measuredBySize.map((file) => file.slice(NODE_MODULES.length + 1))).toEqual([
      'dependency-cruiser/src/schema/configuration.validate.mjs',
      'dependency-cruiser/src/schema/cruise-result.validate.mjs',
    ]);
  });
});
