import type { BindingPattern, Node, ParamPattern, PropertyKey } from 'oxc-parser';
import type { FactsCollector, FunctionDraft } from '../tree-sitter/facts-collector.js';

/** What the walk over oxc's tree carries down (as the TypeScript walk does). */
export interface Scope {
  /** The innermost function whose parameters or body hold the node: it owns calls and decisions. */
  readonly fn: FunctionDraft | null;
  /** The class whose members are being walked, for `Class.method` names. */
  readonly className: string | null;
  /** Inside an interface or an `implements` clause: no expression there is code. */
  readonly inType: boolean;
}

export interface Source {
  readonly text: string;
  readonly facts: FactsCollector;
  /**
   * The nodes that enclose the one being visited, outermost first: ESTree nodes have no parent
   * link, and naming a function or a `require()` needs to look outwards.
   */
  readonly ancestors: Node[];
  /** For a JavaScript file: where TypeScript-only syntax first appears, once found. */
  readonly typeScriptSyntax: { readonly check: boolean; at: number | null };
  /** Names the file binds to a function that loads modules (calls.ts `collectRequireAliases`). */
  readonly requireAliases: Set<string>;
}

/** The text of a node as written; an identifier without the type annotation ESTree includes. */
export function textOf(source: Source, node: Node): string {
  if (node.type === 'Identifier') return identifierText(source, node);
  return source.text.slice(node.start, node.end);
}

/**
 * A binding identifier's range runs over its `?` and type annotation (`a?: T`). Its name is
 * the decoded one: the name as written is wanted, as TypeScript gives it, which differs only
 * when it holds a `\u` escape.
 */
function identifierText(source: Source, node: { name: string; start: number; end: number }) {
  const { text } = source;
  const { name, start, end } = node;
  if (end - start === name.length || text.startsWith(name, start)) return name;
  ESCAPED_IDENTIFIER.lastIndex = start;
  return ESCAPED_IDENTIFIER.exec(text)?.[0] ?? name;
}

const ESCAPED_IDENTIFIER =
  /(?:[\p{ID_Continue}$\u200c\u200d]|\\u(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]+\}))+/uy;

/** The content of a string or substitution-free template literal, as written; else null. */
export function literalText(source: Source, node: Node | null | undefined): string | null {
  if (node === null || node === undefined) return null;
  const isString = node.type === 'Literal' && typeof node.value === 'string';
  if (!isString && !(node.type === 'TemplateLiteral' && node.expressions.length === 0)) return null;
  return source.text.slice(node.start + 1, node.end - 1);
}

/** A name that may be a string (`'a-b'`), written without its quotes; else as written. */
export function nameOf(source: Source, node: Node): string {
  return literalText(source, node) ?? textOf(source, node);
}

/**
 * A member's name by the rule of typescript/syntax.ts propertyName. ESTree keeps
 * the brackets of a computed key (`[k]`) outside the key, TypeScript inside the name: they are
 * put back.
 */
export function memberName(
  source: Source,
  member: { readonly key: PropertyKey; readonly computed: boolean },
): string {
  const { key } = member;
  if (!member.computed) return nameOf(source, key);
  const { text } = source;
  const open = text.lastIndexOf('[', key.start - 1);
  const close = text.indexOf(']', key.end);
  return open === -1 || close === -1 ? textOf(source, key) : text.slice(open, close + 1);
}

/** The identifiers a binding pattern declares, in source order (`a`, `{ b, c: d }`, `[e, ...f]`). */
export function bindingNames(pattern: BindingPattern | ParamPattern): Node[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) =>
        bindingNames(property.type === 'RestElement' ? property.argument : property.value),
      );
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => (element === null ? [] : bindingNames(element)));
    case 'AssignmentPattern':
      return bindingNames(pattern.left);
    case 'RestElement':
      return bindingNames(pattern.argument);
    default:
      return [];
  }
}

export function isIdentifierNamed(node: Node | null | undefined, name: string): boolean {
  return node?.type === 'Identifier' && node.name === name;
}

/**
 * The index in `ancestors` of the nearest enclosing node at or outside `index` that is not
 * parentheses, nor the ChainExpression ESTree wraps around `a?.b` (TypeScript's tree has none).
 */
export function beyondParentheses(ancestors: readonly Node[], index: number): number {
  let at = index;
  while (at >= 0) {
    const type = ancestors[at]?.type;
    if (type !== 'ParenthesizedExpression' && type !== 'ChainExpression') return at;
    at--;
  }
  return at;
}

/** The parent of the node being visited, parentheses looked through; null at the top. */
export function parentBeyondParentheses(source: Source): Node | null {
  const { ancestors } = source;
  return ancestors[beyondParentheses(ancestors, ancestors.length - 1)] ?? null;
}

/**
 * Where a declaration starts for TypeScript: at its decorators and at the `export` or
 * `export default` around it, which TypeScript holds as modifiers of the declaration and ESTree
 * as a wrapping statement. Call while visiting the declaration (its parent is on the stack).
 */
export function declarationStart(
  source: Source,
  node: Node & { readonly decorators?: readonly { readonly start: number }[] },
): number {
  const parent = source.ancestors.at(-1);
  const exported =
    (parent?.type === 'ExportNamedDeclaration' || parent?.type === 'ExportDefaultDeclaration') &&
    parent.declaration === node;
  const start = exported ? parent.start : node.start;
  return Math.min(start, node.decorators?.[0]?.start ?? start);
}
