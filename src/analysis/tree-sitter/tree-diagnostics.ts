import type { Node } from 'web-tree-sitter';
import type { ParseError } from './facts-collector.js';

/** At most this many syntax errors are reported per file: the first ones locate the problem. */
const MAX_DIAGNOSTICS = 20;

/**
 * The syntax errors of a tree-sitter tree, for FileFacts.diagnostics: one per ERROR node (the
 * outermost of nested ones), at its start, and per node the parser had to invent (MISSING), at
 * the place it would stand. Any language; an error-free tree costs one check.
 */
export function syntaxDiagnostics(root: Node): ParseError[] {
  const errors: ParseError[] = [];
  const visit = (node: Node): void => {
    if (errors.length >= MAX_DIAGNOSTICS) return;
    if (node.isMissing) {
      // A token is quoted (`missing ")"`), a named node is not (`missing identifier`).
      const missing = node.isNamed ? node.type : `"${node.type}"`;
      errors.push({ message: `missing ${missing}`, at: node.startIndex });
      return;
    }
    if (node.isError) {
      errors.push({ message: 'syntax error', at: node.startIndex });
      return;
    }
    for (let index = 0; index < node.childCount; index++) {
      const child = node.child(index);
      if (child !== null && (child.hasError || child.isMissing)) visit(child);
    }
  };
  if (root.hasError) visit(root);
  return errors;
}
