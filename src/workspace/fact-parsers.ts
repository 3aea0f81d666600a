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
 * The parser for a run that parses `scripts` TS/JS files. `auto` takes oxc: a native parser that
 * loads in ~15 ms and parses about three times as fast as TypeScript's, so it wins for one file
 * and for a whole repository; without it (the Action's bundle, a platform npm ships no binary
 * for), TypeScript's own parser. Never tree-sitter for TS/JS on its own: on single-token edits
 * of real files it accepts about 2 % of those TypeScript and oxc reject (`function (a) {}` as a
 * statement, `{ a, , b }`), which would pass a file that does not parse.
 *
 * A TS/JS file the parser finds a syntax error in is read again by TypeScript's parser, whose
 * facts stand: the parsers recover from an error differently and point at different places
 * (oxc and TypeScript agree on the column of the first error in about three files of four),
 * so this keeps a broken file's errors, its partial facts and so its findings and their place
 * the same whichever parser a surface runs; and what only tree-sitter rejects (TypeScript 5
 * syntax its grammar lacks) reads in full. Broken files are few: TypeScript loads for them only.
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
  return async (language, text) => {
    if (!isScript(language)) return viaTreeSitter(language, text);
    const facts =
      scriptFacts === undefined
        ? await viaTreeSitter(language, text)
        : scriptFacts.extract(text, language);
    if (facts.diagnostics.length === 0 || scriptFacts?.typeScript === true) return facts;
    return (await typeScriptFacts())(text, language);
  };
}

interface ScriptExtractor {
  readonly extract: ExtractScriptFacts;
  /** TypeScript's own parser, whose word on a syntax error is final. */
  readonly typeScript: boolean;
}

async function scriptExtractor(
  choice: ParserChoice,
  scripts: number,
): Promise<ScriptExtractor | undefined> {
  if (choice === 'tree-sitter' || scripts === 0) return undefined;
  if (choice === 'auto' || choice === 'oxc') {
    const oxc = await loadOxcFacts();
    if (oxc !== undefined) return { extract: oxc, typeScript: false };
    if (choice === 'oxc') {
      throw new AureusError(
        'the oxc parser cannot load on this machine (oxc-parser has no binary installed for it).',
        'reinstall with optional dependencies (npm install --include=optional), or use --parser auto.',
      );
    }
  }
  return { extract: await typeScriptFacts(), typeScript: true };
}

async function typeScriptFacts(): Promise<ExtractScriptFacts> {
  return (await import('../analysis/typescript/typescript-facts.js')).extractTypeScriptFacts;
}

/** Whether `choice` reads TS/JS with oxc on this machine (what the worker threads run). */
export async function parsesScriptsWithOxc(choice: ParserChoice): Promise<boolean> {
  return (choice === 'auto' || choice === 'oxc') && (await loadOxcFacts()) !== undefined;
}

export function isScript(language: Language): language is 'typescript' | 'tsx' | 'javascript' {
  return language === 'typescript' || language === 'tsx' || language === 'javascript';
}
