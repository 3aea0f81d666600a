import { extractOxcFacts } from '../../../src/analysis/oxc/oxc-facts.js';
import { extractTreeSitterFacts } from '../../../src/analysis/tree-sitter/typescript-facts.js';
import { extractTypeScriptFacts } from '../../../src/analysis/typescript/typescript-facts.js';
import type { FileFacts } from '../../../src/model/facts.js';
import { createTreeSitterParsers } from '../../../src/parsers/tree-sitter-parsers.js';

export type ScriptLanguage = 'typescript' | 'tsx' | 'javascript';

export type Extract = (text: string, language: ScriptLanguage) => Promise<FileFacts>;

const parsers = createTreeSitterParsers();

/** web-tree-sitter: parse, extract, free the tree (it lives in WebAssembly memory). */
export const viaTreeSitter: Extract = async (text, language) => {
  const tree = await parsers.parse(language, text);
  try {
    return extractTreeSitterFacts(tree, text, language);
  } finally {
    tree.delete();
  }
};

export const viaTypeScript: Extract = async (text, language) =>
  extractTypeScriptFacts(text, language);

export const viaOxc: Extract = async (text, language) => extractOxcFacts(text, language);

export const EXTRACTORS: readonly (readonly [string, Extract])[] = [
  ['web-tree-sitter', viaTreeSitter],
  ['TypeScript', viaTypeScript],
  ['oxc', viaOxc],
];

/** The language a file's extension means. */
export function languageOf(path: string): ScriptLanguage {
  if (path.endsWith('.tsx')) return 'tsx';
  return /\.[cm]?ts$/.test(path) ? 'typescript' : 'javascript';
}
