import type { Node } from 'web-tree-sitter';

/** At most this many syntax errors are reported per file: the first ones locate the problem. */
const MAX_DIAGNOSTICS = 20;

/**
 * The syntax errors of a tree-sitter tree, for FileFacts.diagnostics, as `line N: …`: one per
 * ERROR node (the outermost of nested ones) and per node the parser had to invent (MISSING).
 * Any language; an error-free tree costs one check.
 */
export function syntaxDiagnostics(root: Node, lineOf: (offset: number) => number): string[] {
  const messages: string[] = [];
  const visit = (node: Node): void => {
    if (messages.length >= MAX_DIAGNOSTICS) return;
    if (node.isMissing) {
      messages.push(`line ${lineOf(node.startIndex)}: missing ${node.type}`);
      return;
    }
    if (node.isError) {
      messages.push(`line ${lineOf(node.startIndex)}: syntax error`);
      return;
    }
    for (let index = 0; index < node.childCount; index++) {
      const child = node.child(index);
      if (child !== null && (child.hasError || child.isMissing)) visit(child);
    }
  };
  if (root.hasError) visit(root);
  return messages;
}
