import type { Node } from 'web-tree-sitter';
import type { FactsCollector, FunctionDraft } from './facts-collector.js';
import type { TextRange } from './line-index.js';

/** Where a Java node sits, as the walk carries it down the tree. */
export interface Scope {
  /** The innermost method, constructor or lambda: it owns decision points and calls. */
  readonly fn: FunctionDraft | undefined;
  /** The type whose body holds the node, for `Type.method`; `(anonymous)` in an anonymous class. */
  readonly typeName: string | undefined;
}

export interface JavaSource {
  readonly facts: FactsCollector;
}

export const ANONYMOUS = '(anonymous)';

export function rangeOf(node: Node): TextRange {
  return { start: node.startIndex, end: node.endIndex };
}

/** Whether a declaration's modifiers include a keyword: `static`, `final`, `abstract`, `public`. */
export function hasModifier(declaration: Node, keyword: string): boolean {
  const modifiers = declaration.namedChildren.find((child) => child.type === 'modifiers');
  return modifiers?.children.some((modifier) => modifier.type === keyword) ?? false;
}

/** A type as written without its generic arguments: `base.Base<T>` → `base.Base`. */
export function withoutTypeArguments(type: Node): string {
  const raw = type.type === 'generic_type' ? (type.firstNamedChild ?? type) : type;
  return raw.text.replace(/\s+/g, '');
}

/** The content of a string literal or text block as written; null for anything else. */
export function javaStringValue(node: Node | null | undefined): string | null {
  if (node?.type !== 'string_literal') return null;
  const quotes = node.text.startsWith('"""') ? 3 : 1;
  return node.text.slice(quotes, -quotes);
}
