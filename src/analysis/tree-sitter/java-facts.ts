import type { Tree } from 'web-tree-sitter';
import type { FileFacts } from '../../model/facts.js';
import { FactsCollector } from './facts-collector.js';
import { walkJava } from './java-walk.js';
import { syntaxDiagnostics } from './tree-diagnostics.js';

/**
 * The facts of one Java file, from its web-tree-sitter tree and its text. Pure: no I/O.
 *
 * How each fact maps onto Java (details in the module each rule lives in):
 * - lines: `//` and `/* *\/` comments (Javadoc included); a multi-line text block is code.
 * - classes, abstractions, exports, mutable state: java-types.ts.
 * - functions: java-functions.ts; complexity: java-walk.ts; calls, reflection, event
 *   subscriptions, imports and DI containers: java-calls.ts.
 * - a tree with syntax errors still yields the facts of what parsed, plus a diagnostic per
 *   syntax error at its line and column (tree-diagnostics.ts); the extractor never throws.
 */
export function extractJavaFacts(tree: Tree, text: string): FileFacts {
  const facts = new FactsCollector(text, 'java');
  walkJava(tree.rootNode, { facts });
  for (const error of syntaxDiagnostics(tree.rootNode)) facts.diagnostic(error);
  return facts.finish();
}
