import type { Tree } from 'web-tree-sitter';
import type { FileFacts, Language } from '../model/facts.js';
import { extractGoFacts } from './tree-sitter/go-facts.js';
import { extractJavaFacts } from './tree-sitter/java-facts.js';
import { extractPythonFacts } from './tree-sitter/python-facts.js';

/**
 * The languages web-tree-sitter reads. TypeScript and JavaScript are oxc's or TypeScript's own
 * parser's: tree-sitter's grammars accept files those reject, which would pass broken code.
 */
export type TreeLanguage = Exclude<Language, 'typescript' | 'tsx' | 'javascript'>;

/** The facts of a file from its web-tree-sitter tree, by the file's language. */
export function factsFromTree(language: TreeLanguage, tree: Tree, text: string): FileFacts {
  switch (language) {
    case 'python':
      return extractPythonFacts(tree, text);
    case 'go':
      return extractGoFacts(tree, text);
    case 'java':
      return extractJavaFacts(tree, text);
  }
}
