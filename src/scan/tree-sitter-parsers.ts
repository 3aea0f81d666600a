import { readFile } from 'node:fs/promises';
import type { Language, Parser, Tree } from 'web-tree-sitter';
import type { TreeLanguage } from '../analysis/facts-from-tree.js';
import { grammarFile } from './grammar-file.js';

/** The grammar file of each language, as shipped inside its grammar package. */
const GRAMMARS: Readonly<Record<TreeLanguage, string>> = {
  python: 'tree-sitter-python/tree-sitter-python.wasm',
  go: 'tree-sitter-go/tree-sitter-go.wasm',
  java: 'tree-sitter-java/tree-sitter-java.wasm',
};

/** Parses source text with web-tree-sitter; grammars are loaded on first use of a language. */
export interface TreeSitterParsers {
  parse(language: TreeLanguage, text: string): Promise<Tree>;
  /** The loaded grammar, for building queries. */
  language(language: TreeLanguage): Promise<Language>;
}

type Runtime = typeof import('web-tree-sitter');

/**
 * web-tree-sitter, loaded and initialised on the first parse, once per process (it is a
 * WebAssembly module): a run that parses no Python, Go or Java never loads its 150 KB, which
 * the bundle's chunks otherwise load with the analysis modules they share a chunk with.
 */
let initialized: Promise<Runtime> | undefined;

function loadRuntime(): Promise<Runtime> {
  initialized ??= import('web-tree-sitter').then(async (module) => {
    await module.Parser.init();
    return module;
  });
  return initialized;
}

/** Creates the parsers; each grammar is read from its package once and kept. */
export function createTreeSitterParsers(): TreeSitterParsers {
  const languages = new Map<TreeLanguage, Promise<Language>>();
  const parsers = new Map<TreeLanguage, Parser>();
  const language = (name: TreeLanguage): Promise<Language> => {
    let loaded = languages.get(name);
    if (loaded === undefined) {
      loaded = loadRuntime().then(async (module) =>
        module.Language.load(await readFile(grammarFile(GRAMMARS[name]))),
      );
      languages.set(name, loaded);
    }
    return loaded;
  };
  return {
    language,
    async parse(name, text) {
      const grammar = await language(name);
      let parser = parsers.get(name);
      if (parser === undefined) {
        parser = new (await loadRuntime()).Parser();
        parser.setLanguage(grammar);
        parsers.set(name, parser);
      }
      const tree = parser.parse(withParserLineBreaks(name, withoutShebang(name, withoutNul(text))));
      if (tree === null) throw new Error(`tree-sitter returned no tree for a ${name} file`);
      return tree;
    },
  };
}

/**
 * tree-sitter's lexers take a NUL for the end of the input, so a NUL in a comment or a string
 * (which TypeScript's parser and oxc read as any other character) would break the tree. Another
 * control character in its place keeps every offset and is what the grammars then judge: read in
 * comments and strings, a syntax error in code, as the other parsers judge the NUL.
 */
function withoutNul(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\x01') : text;
}

/**
 * Java's launcher runs a source file whose first line is a `#!` line (JEP 330) as though that
 * line were not there; the grammar knows no such line. As a `//` comment it keeps every offset.
 */
function withoutShebang(language: TreeLanguage, text: string): string {
  return language === 'java' && text.startsWith('#!') ? `//${text.slice(2)}` : text;
}

/**
 * Python and Java end a line at a lone `\r` as at `\n` (CPython's tokenizer, the JLS's
 * LineTerminator); their tree-sitter grammars end one at `\n` only, so that in a file laid out
 * with `\r` a first `#` or `//` comment would run to the end of the file and hide every line of
 * code after it. Each lone `\r` becomes a `\n`, which keeps every offset (the line index reads
 * the original text with the same breaks: line-index.ts). Go ends lines at `\n` alone, as its
 * grammar does.
 */
function withParserLineBreaks(language: TreeLanguage, text: string): string {
  if (language === 'go' || !text.includes('\r')) return text;
  return text.replace(/\r(?!\n)/g, '\n');
}
