import { factsFromTree, type TreeLanguage } from '../analysis/facts-from-tree.js';
import { AureusError } from '../model/errors.js';
import type { FileFacts, Language } from '../model/facts.js';
import { type ExtractScriptFacts, loadOxcFacts } from './load-oxc-facts.js';
import { outOfStackFacts, TOO_DEEP_MESSAGE, tooDeepAt, unreadFacts } from './nesting-depth.js';
import { createTreeSitterParsers } from './tree-sitter-parsers.js';

/**
 * Which parser reads TypeScript and JavaScript; every other language is web-tree-sitter's.
 * One walk reads both trees (TypeScript's converted to oxc's TS-ESTree shape), and both give
 * the same facts (the parity tests), so the choice is about speed alone.
 */
export type ParserChoice = 'auto' | 'oxc' | 'typescript';

/** Turns one file's text into its facts. */
export type ParseFacts = (language: Language, text: string) => Promise<FileFacts>;

/**
 * The parser for a run that parses `scripts` TS/JS files. `auto` takes oxc: a native parser that
 * loads in ~15 ms and parses about three times as fast as TypeScript's, so it wins for one file
 * and for a whole repository; without it (the Action's bundle, a platform npm ships no binary
 * for), TypeScript's own parser. Never tree-sitter for TS/JS: on single-token edits of real
 * files it accepts about 2 % of those TypeScript and oxc reject (`function (a) {}` as a
 * statement, `{ a, , b }`), which would pass a file that does not parse. With no TS/JS counted
 * (`scripts` 0), the TS/JS parser loads on its first such file only.
 *
 * A TS/JS file oxc finds a syntax error in is read again by TypeScript's parser, whose facts
 * stand: the parsers recover from an error differently and point at different places (oxc and
 * TypeScript agree on the column of the first error in about three files of four), so this
 * keeps a broken file's errors, its partial facts and so its findings and their place the same
 * whichever parser a surface runs. Broken files are few: TypeScript loads for them only.
 */
export async function createFactParser(choice: ParserChoice, scripts: number): Promise<ParseFacts> {
  const treeSitter = createTreeSitterParsers();
  const viaTreeSitter = async (language: TreeLanguage, text: string): Promise<FileFacts> => {
    const tree = await treeSitter.parse(language, text);
    try {
      return factsFromTree(language, tree, text);
    } finally {
      // Trees live in WebAssembly memory, which the garbage collector does not see.
      tree.delete();
    }
  };
  // Loaded up front when TS/JS is to come, so that an oxc that cannot load fails the run at once.
  let scriptFacts = scripts > 0 ? Promise.resolve(await scriptExtractor(choice)) : undefined;
  const parse: ParseFacts = async (language, text) => {
    if (!isScript(language)) return viaTreeSitter(language, text);
    const deep = tooDeepAt(text, language !== 'typescript');
    if (deep !== null) return unreadFacts(language, text, deep, TOO_DEEP_MESSAGE);
    scriptFacts ??= scriptExtractor(choice);
    const { extract, typeScript } = await scriptFacts;
    const facts = extract(text, language);
    if (facts.diagnostics.length === 0 || typeScript) return facts;
    return (await typeScriptFacts())(text, language);
  };
  return async (language, text) => {
    try {
      return await parse(language, text);
    } catch (error) {
      if (error instanceof RangeError) return outOfStackFacts(language, text, error);
      throw error;
    }
  };
}

interface ScriptExtractor {
  readonly extract: ExtractScriptFacts;
  /** TypeScript's own parser, whose word on a syntax error is final. */
  readonly typeScript: boolean;
}

async function scriptExtractor(choice: ParserChoice): Promise<ScriptExtractor> {
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
