import { factsFromTree } from '../analysis/facts-from-tree.js';
import { AureusError } from '../model/errors.js';
import type { FileFacts, Language } from '../model/facts.js';
import { createTreeSitterParsers } from '../parsers/tree-sitter-parsers.js';
import { type ExtractScriptFacts, loadOxcFacts } from './load-oxc-facts.js';

/**
 * Which parser reads TypeScript and JavaScript; every other language is web-tree-sitter's.
 * All give the same facts (the parity tests), so the choice is about speed alone.
 */
export type ParserChoice = 'auto' | 'oxc' | 'typescript' | 'tree-sitter';

/** Turns one file's text into its facts. */
export type ParseFacts = (language: Language, text: string) => Promise<FileFacts>;

/**
 * Loading TypeScript costs ~200 ms and then parses TS/JS 1.6–2.5× faster than tree-sitter, so it
 * pays off only beyond this many files to parse; small runs (a commit) stay on tree-sitter. Used
 * by `auto` only where oxc cannot load.
 */
const TYPESCRIPT_PARSER_THRESHOLD = 150;

/**
 * The parser for a run that parses `scripts` TS/JS files. `auto` takes oxc: a native parser that
 * loads in ~15 ms and parses about three times as fast as TypeScript's, so it wins for one file
 * and for a whole repository; without it, TypeScript's parser for large runs, tree-sitter for
 * small ones.
 */
export async function createFactParser(choice: ParserChoice, scripts: number): Promise<ParseFacts> {
  const treeSitter = createTreeSitterParsers();
  const viaTreeSitter: ParseFacts = async (language, text) => {
    const tree = await treeSitter.parse(language, text);
    try {
      return factsFromTree(language, tree, text);
    } finally {
      // Trees live in WebAssembly memory, which the garbage collector does not see.
      tree.delete();
    }
  };
  const scriptFacts = await scriptExtractor(choice, scripts);
  if (scriptFacts === undefined) return viaTreeSitter;
  return async (language, text) =>
    isScript(language) ? scriptFacts(text, language) : viaTreeSitter(language, text);
}

async function scriptExtractor(
  choice: ParserChoice,
  scripts: number,
): Promise<ExtractScriptFacts | undefined> {
  if (choice === 'tree-sitter' || scripts === 0) return undefined;
  if (choice === 'auto' || choice === 'oxc') {
    const oxc = await loadOxcFacts();
    if (oxc !== undefined) return oxc;
    if (choice === 'oxc') {
      throw new AureusError(
        'the oxc parser cannot load on this machine (oxc-parser has no binary installed for it).',
        'reinstall with optional dependencies (npm install --include=optional), or use --parser auto.',
      );
    }
    if (scripts < TYPESCRIPT_PARSER_THRESHOLD) return undefined;
  }
  const { extractTypeScriptFacts } = await import('../analysis/typescript/typescript-facts.js');
  return extractTypeScriptFacts;
}

/** Whether `choice` reads TS/JS with oxc on this machine (what the worker threads run). */
export async function parsesScriptsWithOxc(choice: ParserChoice): Promise<boolean> {
  return (choice === 'auto' || choice === 'oxc') && (await loadOxcFacts()) !== undefined;
}

export function isScript(language: Language): language is 'typescript' | 'tsx' | 'javascript' {
  return language === 'typescript' || language === 'tsx' || language === 'javascript';
}
