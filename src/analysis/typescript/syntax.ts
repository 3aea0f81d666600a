import type * as ts from 'typescript';
import type { FactsCollector, FunctionDraft } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import { typescript } from '../typescript-runtime.js';

/** What the walk over TypeScript's tree carries down. */
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
  readonly file: ts.SourceFile;
  readonly facts: FactsCollector;
  /** Tokens whose text may hold `//` or `/*` without being a comment (see comment-ranges.ts). */
  readonly opaque: TextRange[];
  /** For a JavaScript file: where TypeScript-only syntax first appears, once found. */
  readonly typeScriptSyntax: { readonly check: boolean; at: number | null };
}

export function startOf(source: Source, node: ts.Node): number {
  return node.getStart(source.file);
}

export function rangeOf(source: Source, node: ts.Node): TextRange {
  return { start: node.getStart(source.file), end: node.end };
}

export function textOf(source: Source, node: ts.Node): string {
  return source.text.slice(node.getStart(source.file), node.end);
}

/** The content of a string or substitution-free template literal, as written; else null. */
export function literalText(source: Source, node: ts.Node | undefined): string | null {
  if (node === undefined) return null;
  if (!typescript.isStringLiteral(node) && !typescript.isNoSubstitutionTemplateLiteral(node))
    return null;
  return source.text.slice(node.getStart(source.file) + 1, node.end - 1);
}

/**
 * Property and member names: identifiers and private names as written, string keys without
 * their quotes, numbers as written, computed keys as written with their brackets.
 */
export function propertyName(source: Source, name: ts.Node | undefined): string | null {
  if (name === undefined) return null;
  return literalText(source, name) ?? textOf(source, name);
}

export function hasModifier(node: ts.Node, kind: ts.ModifierSyntaxKind): boolean {
  return (
    typescript.canHaveModifiers(node) &&
    (typescript.getModifiers(node)?.some((m) => m.kind === kind) ?? false)
  );
}

/** The identifiers a binding name declares, in source order (`a`, `{ b, c: d }`, `[e, ...f]`). */
export function bindingNames(name: ts.BindingName): ts.Identifier[] {
  if (typescript.isIdentifier(name)) return [name];
  return name.elements.flatMap((element) =>
    typescript.isOmittedExpression(element) ? [] : bindingNames(element.name),
  );
}

export function isIdentifierNamed(node: ts.Node | undefined, name: string): boolean {
  return node !== undefined && typescript.isIdentifier(node) && node.text === name;
}

/** The parent of an expression, looking through the parentheses around it. */
export function parentBeyondParentheses(node: ts.Node): ts.Node {
  let parent = node.parent;
  while (typescript.isParenthesizedExpression(parent)) parent = parent.parent;
  return parent;
}
