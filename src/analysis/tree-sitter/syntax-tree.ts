import type { Node } from 'web-tree-sitter';
import type { ParseError } from './facts-collector.js';
import type { TextRange } from './line-index.js';

/** The name of a function that has none (FunctionFact.name). */
export const ANONYMOUS = '(anonymous)';

/** Where a node stands in the text. */
export function rangeOf(node: Node): TextRange {
  return { start: node.startIndex, end: node.endIndex };
}

/**
 * `a.b.c` for a node that is a chain of names (FileFacts.qualifiedCalls), else null: `member` is
 * the grammar's type of a member access, `object` and `field` the fields of its two sides.
 */
export function dottedName(
  node: Node,
  member: string,
  object: string,
  field: string,
): string | null {
  if (node.type === 'identifier') return node.text;
  if (node.type !== member) return null;
  const head = node.childForFieldName(object);
  const name = node.childForFieldName(field);
  const path = head === null ? null : dottedName(head, member, object, field);
  return path === null || name === null ? null : `${path}.${name.text}`;
}

/**
 * Visits every named node depth-first in source order, without recursion so that deeply nested
 * code cannot overflow the stack. `visit` returns the scope the node's children are visited in.
 */
export function walkInSourceOrder<Scope>(
  root: Node,
  rootScope: Scope,
  visit: (node: Node, type: string, scope: Scope) => Scope,
): void {
  const nodes: Node[] = [root];
  const scopes: Scope[] = [rootScope];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const childScope = visit(node, node.type, scopes.pop() ?? rootScope);
    // Pushed in reverse, so that they are popped, and read, in source order.
    const children = node.namedChildren;
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child = children[index];
      if (child === undefined) continue;
      nodes.push(child);
      scopes.push(childScope);
    }
  }
}

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
