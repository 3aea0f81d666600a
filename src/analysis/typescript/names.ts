import ts from 'typescript';
import type { FunctionKind } from '../../model/facts.js';
import { ANONYMOUS, DEFAULT_EXPORT } from '../tree-sitter/javascript-conventions.js';
import {
  hasModifier,
  parentBeyondParentheses,
  propertyName,
  type Scope,
  type Source,
  textOf,
} from './syntax.js';

/** A function with a body: what gets a FunctionFact. */
export type FunctionWithBody =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.AccessorDeclaration;

/** FunctionFact.name, by the rules written down in tree-sitter/typescript-names.ts. */
export function functionName(source: Source, node: FunctionWithBody, scope: Scope): string {
  if (ts.isConstructorDeclaration(node)) return `${scope.className ?? ANONYMOUS}.constructor`;
  if (ts.isMethodDeclaration(node) || ts.isAccessor(node)) {
    const member = propertyName(source, node.name) ?? ANONYMOUS;
    return ts.isClassLike(node.parent) ? `${scope.className ?? ANONYMOUS}.${member}` : member;
  }
  if (node.name !== undefined) return textOf(source, node.name);
  return ts.isFunctionDeclaration(node) ? DEFAULT_EXPORT : contextualName(source, node, scope);
}

/** The name of a class: declared, `default` for `export default class {}`, else by context. */
export function className(source: Source, node: ts.ClassLikeDeclaration, scope: Scope): string {
  if (node.name !== undefined) return textOf(source, node.name);
  return ts.isClassDeclaration(node) ? DEFAULT_EXPORT : contextualName(source, node, scope);
}

function contextualName(source: Source, node: ts.Expression, scope: Scope): string {
  const parent = parentBeyondParentheses(node);
  if (ts.isVariableDeclaration(parent)) {
    return ts.isIdentifier(parent.name) ? textOf(source, parent.name) : ANONYMOUS;
  }
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    return assignedName(source, parent.left);
  }
  if (ts.isPropertyAssignment(parent)) return propertyName(source, parent.name) ?? ANONYMOUS;
  if (ts.isPropertyDeclaration(parent)) {
    return `${scope.className ?? ANONYMOUS}.${propertyName(source, parent.name) ?? ANONYMOUS}`;
  }
  if (ts.isExportAssignment(parent)) return DEFAULT_EXPORT;
  return ANONYMOUS;
}

function assignedName(source: Source, target: ts.Expression): string {
  if (ts.isIdentifier(target)) return textOf(source, target);
  if (ts.isPropertyAccessExpression(target)) return textOf(source, target.name);
  return ANONYMOUS;
}

export function functionKind(node: FunctionWithBody): FunctionKind {
  if (ts.isArrowFunction(node)) return 'arrow';
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (ts.isAccessor(node)) return 'accessor';
  return ts.isMethodDeclaration(node) ? 'method' : 'function';
}

/** Parameters as declared; the `this` parameter is not one. */
export function parameterCount(node: ts.SignatureDeclarationBase): number {
  return node.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this')).length;
}

export function isAbstract(node: ts.Node): boolean {
  return hasModifier(node, ts.SyntaxKind.AbstractKeyword);
}
