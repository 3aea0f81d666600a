import type { Node } from 'web-tree-sitter';

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
