import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import type { FileFacts } from '../../src/model/facts.js';
import { createFactParser } from '../../src/scan/fact-parsers.js';
import {
  languageOf,
  type ScriptLanguage,
  viaOxc,
  viaTypeScript,
} from '../analysis/support/typescript-extractors.js';

const CHOICES = ['oxc', 'typescript'] as const;
const parsers = Promise.all(CHOICES.map((choice) => createFactParser(choice, 1)));

/** The facts each parser choice gives the text, in CHOICES order. */
async function factsByChoice(text: string, language: ScriptLanguage): Promise<FileFacts[]> {
  return Promise.all((await parsers).map((parse) => parse(language, text)));
}

const lines = (...text: string[]) => `${text.join('\n')}\n`;

/** Broken in the ways code gets broken, each where the parsers recover differently. */
const BROKEN: ReadonlyArray<readonly [string, ScriptLanguage, string, string]> = [
  [
    'a missing parenthesis',
    'typescript',
    lines('export function f(a: number {', '  return a + ;', '}'),
    "1:29: ',' expected.",
  ],
  [
    'a missing brace',
    'typescript',
    lines('class A {', '  m() {', '    return 1;', '  }'),
    "4:4: '}' expected.",
  ],
  [
    'two expressions in a row',
    'typescript',
    lines('const a = 1;', 'const b = 2 3;'),
    "2:13: ',' expected.",
  ],
  [
    'an unterminated string',
    'typescript',
    lines('const a = 1;', 'const b = "abc', 'const c = 4;'),
    '2:15: Unterminated string literal.',
  ],
  [
    'a stray closing brace',
    'typescript',
    lines('const a = 1;', '}', 'const c = 4;'),
    '2:1: Declaration or statement expected.',
  ],
  // `@b() {}`: a decorator, then a body where an expression should be.
  [
    'garbage in a class body',
    'typescript',
    lines('class A {', '  a() {}', '  @@@', '  b() {}', '}'),
    '4:6: Expression expected.',
  ],
  [
    'an unclosed JSX element',
    'tsx',
    lines('const a = <div><span></div>;'),
    "1:17: JSX element 'span' has no corresponding closing tag.",
  ],
  [
    'TypeScript syntax in JavaScript',
    'javascript',
    lines('const a = 1;', 'let b: number = a;'),
    '2:8: TypeScript syntax in a JavaScript file',
  ],
];

const first = ({ diagnostics: [error] }: FileFacts) =>
  error === undefined ? null : `${error.line}:${error.column}: ${error.message}`;

describe('the fact parsers on a file that does not parse', () => {
  it.each(BROKEN)(
    'give %s the same facts whichever parser reads it: TypeScript parser’s error and recovery',
    async (_, language, text, error) => {
      const [oxc, typescript] = await factsByChoice(text, language);
      expect(oxc === undefined ? null : first(oxc)).toBe(error);
      expect(typescript).toEqual(oxc);
    },
  );

  it('rejects a function statement without a name, whichever parser reads it', async () => {
    const text = lines('function (a) {', '  return a;', '}');
    const [oxc, typescript] = await factsByChoice(text, 'javascript');
    expect(oxc === undefined ? null : first(oxc)).toBe('1:10: Identifier expected.');
    expect(typescript).toEqual(oxc);
  });

  it('reads in full, with no error, an import type with generic arguments', async () => {
    const text = lines(
      "type Stream<R = unknown> = import('stream/web').ReadableStream<R>;",
      'export class Reader {',
      '  read(): Stream | null {',
      '    return null;',
      '  }',
      '}',
    );
    const [oxc, typescript] = await factsByChoice(text, 'typescript');
    expect(oxc?.diagnostics).toEqual([]);
    expect(typescript).toEqual(oxc);
  });
});

const NODE_MODULES = fileURLToPath(new URL('../../node_modules', import.meta.url));

/** Real code written by others (the parity corpus): what the edits below break. */
const CORPUS = [
  'ajv/lib',
  'commander/lib',
  'dependency-cruiser/src',
  'json-schema-to-typescript/src',
];

/** Each edit is read four ways: small files keep that quick. */
const MAX_BYTES = 16 * 1024;

function corpusFiles(): string[] {
  return CORPUS.flatMap((folder) => {
    const root = join(NODE_MODULES, folder);
    if (!existsSync(root)) return [];
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((path) => /\.(ts|mjs|cjs|js)$/.test(path) && !/\.d\.[cm]?ts$/.test(path))
      .sort()
      .map((path) => join(root, path))
      .filter((path) => statSync(path).size <= MAX_BYTES);
  });
}

const TOKEN = /[A-Za-z_$][\w$]*|\d+|=>|[{}()[\];,.<>:=+\-*/!?&|'"`]/g;
const INSERTED = ['{', '}', '(', ')', ';', ',', 'if', 'const', '=>', ':', '.', '=', 'class', '<'];

/**
 * `count` single-token edits of the corpus, the same on every run (a fixed linear congruential
 * sequence): a token deleted, doubled, or preceded by another. Typing errors, as a commit
 * brings them.
 */
function tokenEdits(
  count: number,
): Array<{ file: string; language: ScriptLanguage; text: string }> {
  const files = corpusFiles();
  let seed = 20_240_101;
  const next = (bound: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % bound;
  };
  return Array.from({ length: count }, () => {
    const file = files[next(files.length)] ?? '';
    const original = readFileSync(file, 'utf8');
    const tokens = [...original.matchAll(TOKEN)];
    const token = tokens[next(tokens.length)];
    const at = token?.index ?? 0;
    const end = at + (token?.[0].length ?? 0);
    const edits = [
      () => original.slice(0, at) + original.slice(end),
      () => `${original.slice(0, end)} ${original.slice(at)}`,
      () => `${original.slice(0, at)}${INSERTED[next(INSERTED.length)]} ${original.slice(at)}`,
    ];
    const text = edits[next(edits.length)]?.() ?? original;
    return { file: file.slice(NODE_MODULES.length + 1), language: languageOf(file), text };
  });
}

const EDITS = 200;

/** One edit as each extractor alone sees it, and its facts by parser choice (CHOICES order). */
interface EditRead {
  readonly file: string;
  readonly oxcRejects: boolean;
  readonly typeScriptRejects: boolean;
  readonly byChoice: readonly FileFacts[];
}

async function readEdits(count: number): Promise<EditRead[]> {
  const reads: EditRead[] = [];
  for (const { file, language, text } of tokenEdits(count)) {
    reads.push({
      file,
      oxcRejects: (await viaOxc(text, language)).diagnostics.length > 0,
      typeScriptRejects: (await viaTypeScript(text, language)).diagnostics.length > 0,
      byChoice: await factsByChoice(text, language),
    });
  }
  return reads;
}

describe('the fact parsers on single-token edits of real code', () => {
  // Read in the first test that asks: Jest refuses imports (TypeScript's, loaded on demand)
  // started outside a test.
  let read: Promise<EditRead[]> | undefined;
  const reads = () => {
    read ??= readEdits(EDITS);
    return read;
  };

  it('has edits that break files and edits that do not', async () => {
    const rejected = (await reads()).filter((read) => read.typeScriptRejects).length;
    expect(rejected).toBeGreaterThan(EDITS / 4);
    expect(rejected).toBeLessThan((EDITS * 3) / 4);
  });

  it('finds oxc rejecting every edited file TypeScript rejects', async () => {
    // oxc is stricter the other way: it also reports early errors (`const a;`, regular
    // expression flags, a doubled `export`) that TypeScript's parser reads in full and leaves
    // to its checker. Those files are read again by TypeScript's parser, whose complete facts
    // stand. The reverse would make oxc pass what TypeScript's parser says does not parse.
    const all = await reads();
    const missed = all.filter((read) => read.typeScriptRejects && !read.oxcRejects);
    expect(missed.map((read) => read.file)).toEqual([]);
    const onlyOxc = all.filter((read) => read.oxcRejects && !read.typeScriptRejects);
    expect(onlyOxc.length).toBeLessThan(all.length / 20);
  });

  it('gives each broken file the same facts, error and place whichever parser reads it', async () => {
    const differences: string[] = [];
    for (const { file, byChoice } of await reads()) {
      const [oxc, typescript] = byChoice.map((facts) => JSON.stringify(facts));
      if (typescript !== oxc) differences.push(`${file}: oxc and TypeScript`);
    }
    expect(differences).toEqual([]);
  });
});
