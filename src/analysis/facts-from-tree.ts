import type { Tree } from 'web-tree-sitter';
import type { FileFacts, Language } from '../model/facts.js';
import { extractGoFacts } from './tree-sitter/go-facts.js';
import { extractJavaFacts } from './tree-sitter/java-facts.js';
import { extractPythonFacts } from './tree-sitter/python-facts.js';
import { extractTreeSitterFacts } from './tree-sitter/typescript-facts.js';

/** The facts of a file from its web-tree-sitter tree, by the file's language. */
export function factsFromTree(language: Language, tree: Tree, text: string): FileFacts {
  switch (language) {
    case 'python':
      return extractPythonFacts(tree, text);
    case 'go':
      return extractGoFacts(tree, text);
    case 'java':
      return extractJavaFacts(tree, text);
    default:
      return extractTreeSitterFacts(tree, text, language);
  }
}
