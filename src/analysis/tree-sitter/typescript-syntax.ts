import type { Node } from 'web-tree-sitter';
import type { FactsCollector, FunctionDraft } from './facts-collector.js';

/** What the TS/JS tree-sitter walk carries down the tree. */
export interface Scope {
  /** The innermost function whose parameters or body hold the node: it owns calls and decisions. */
  readonly fn: FunctionDraft | null;
  /** The class whose body is being walked, for `Class.method` names. */
  readonly className: string | null;
  /** Inside a type: only `import('x')` types are facts there. */
  readonly inType: boolean;
}

export interface Source {
  readonly text: string;
  readonly facts: FactsCollector;
}

export function textOf(source: Source, node: Node): string {
  return source.text.slice(node.startIndex, node.endIndex);
}

export function namedChildren(node: Node): Node[] {
  const children: Node[] = [];
  for (let index = 0; index < node.namedChildCount; index++) {
    const child = node.namedChild(index);
    if (child !== null && child.type !== 'comment') children.push(child);
  }
  return children;
}

/** Whether a node has an anonymous keyword child, such as `static`, `type` or `default`. */
export function hasToken(node: Node, token: string): boolean {
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (child !== null && !child.isNamed && child.type === token) return true;
  }
  return false;
}

/** The content of a string literal or of a template literal without substitutions, as written. */
export function literalText(source: Source, node: Node | null | undefined): string | null {
  if (node === null || node === undefined) return null;
  if (node.type === 'string') return source.text.slice(node.startIndex + 1, node.endIndex - 1);
  if (node.type === 'template_string' && !namedChildren(node).some(isSubstitution)) {
    return source.text.slice(node.startIndex + 1, node.endIndex - 1);
  }
  return null;
}

function isSubstitution(node: Node): boolean {
  return node.type === 'template_substitution';
}

/** The first argument of a call (null for a tagged template or no argument). */
export function firstArgument(call: Node): Node | null {
  const list = call.childForFieldName('arguments');
  if (list === null || list.type !== 'arguments') return null;
  return namedChildren(list)[0] ?? null;
}

/**
 * A property or member name: identifiers and private names as written, string keys without
 * their quotes, numbers as written, computed keys as written with their brackets.
 */
export function propertyName(source: Source, node: Node | null): string | null {
  if (node === null) return null;
  return node.type === 'string' ? literalText(source, node) : textOf(source, node);
}

/** Skips TypeScript's `!` after an expression (`a.b!()` calls `b`). */
export function unwrapNonNull(node: Node): Node {
  let current = node;
  while (current.type === 'non_null_expression') {
    const inner = namedChildren(current)[0];
    if (inner === undefined) return current;
    current = inner;
  }
  return current;
}

/** The parent of an expression, looking through the parentheses around it. */
export function parentBeyondParentheses(node: Node): { parent: Node | null; child: Node } {
  let child = node;
  let parent = node.parent;
  while (parent !== null && parent.type === 'parenthesized_expression') {
    child = parent;
    parent = parent.parent;
  }
  return { parent, child };
}

/** The names a declaration binds, in source order: `a`, `{ b, c: d, ...e }`, `[f = 1, ...g]`. */
export function bindingNames(node: Node | null): Node[] {
  if (node === null) return [];
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      return [node];
    case 'pair_pattern':
      return bindingNames(node.childForFieldName('value'));
    case 'assignment_pattern':
    case 'object_assignment_pattern':
      return bindingNames(node.childForFieldName('left'));
    case 'rest_pattern':
    case 'object_pattern':
    case 'array_pattern':
      return namedChildren(node).flatMap(bindingNames);
    default:
      return [];
  }
}
