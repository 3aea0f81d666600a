import type { Node } from 'oxc-parser';
import visitorKeys from 'oxc-parser/src-js/generated/visit/keys';
import type { Scope, Source } from './syntax.js';

export type Visit = (source: Source, node: Node, scope: Scope) => void;

/** Visits each child of a node, all in one scope. */
export function visitChildren(source: Source, node: Node, scope: Scope, visit: Visit): void {
  forEachChild(source, node, (child) => visit(source, child, scope));
}

/**
 * Calls `visit` on each child of a node, in source order, with the node pushed on the ancestor
 * stack meanwhile. `key` names the property that holds the child (`decorators`, `id`, `body`…).
 *
 * oxc's `visitorKeys` lists, per node type, the properties holding children in traversal
 * order; it is the walk the parser's own Visitor makes, and typescript-estree's trees (TS-ESTree
 * as well) are walked by it too. Nodes are plain objects decoded from
 * JSON, so a property is read by name: the one place the tree is treated as untyped data.
 */
export function forEachChild(
  source: Source,
  node: Node,
  visit: (child: Node, key: string) => void,
): void {
  const keys = visitorKeys[node.type];
  if (keys === undefined || keys.length === 0) return;
  const fields = node as unknown as Readonly<Record<string, unknown>>;
  const { ancestors } = source;
  ancestors.push(node);
  for (const key of keys) {
    const value = fields[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item, key);
    } else if (isNode(value)) {
      visit(value, key);
    }
  }
  ancestors.pop();
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && 'type' in value;
}
