import { factsFromTree } from '../analysis/facts-from-tree.js';
import type { FileFacts, Language } from '../model/facts.js';
import { createTreeSitterParsers } from '../parsers/tree-sitter-parsers.js';

export type ParserChoice = 'auto' | 'typescript' | 'tree-sitter';

/** Turns one file's text into its facts. */
export type ParseFacts = (language: Language, text: string) => Promise<FileFacts>;

/**
 * Loading TypeScript costs ~200 ms and then parses TS/JS 1.6–2.5× faster than tree-sitter, so it
 * pays off only beyond this many files to parse; small runs (a commit) stay on tree-sitter.
 */
const TYPESCRIPT_PARSER_THRESHOLD = 150;

/** Whether TypeScript's parser reads the TS/JS files of a run that parses `scripts` of them. */
export function usesTypeScriptParser(choice: ParserChoice, scripts: number): boolean {
  return choice === 'typescript' || (choice === 'auto' && scripts >= TYPESCRIPT_PARSER_THRESHOLD);
}

/** The parser for a run: TypeScript's for TS/JS when chosen, web-tree-sitter for everything else. */
export async function createFactParser(useTypeScript: boolean): Promise<ParseFacts> {
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
  if (!useTypeScript) return viaTreeSitter;
  const { extractTypeScriptFacts } = await import('../analysis/typescript/typescript-facts.js');
  return async (language, text) => {
    if (isScript(language)) return extractTypeScriptFacts(text, language);
    return viaTreeSitter(language, text);
  };
}

export function isScript(language: Language): language is 'typescript' | 'tsx' | 'javascript' {
  return language === 'typescript' || language === 'tsx' || language === 'javascript';
}
