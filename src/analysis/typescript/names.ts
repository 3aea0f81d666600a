import type * as ts from 'typescript';
import type { FunctionKind } from '../../model/facts.js';
import { ANONYMOUS, DEFAULT_EXPORT } from '../javascript-conventions.js';
import { typescript } from '../typescript-runtime.js';
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

/**
 * FunctionFact.name, by rules the oxc extractor applies to its own tree:
 * - a declared name wins (`function f`, `const a = function b() {}` → `b`);
 * - class members are `Class.member` (constructors `Class.constructor`, class fields holding a
 *   function `Class.field`); object literal members are just `member`;
 * - a function or class expression assigned with `=` takes the variable's name, or the last
 *   property's name (`a.b.c = () => {}` → `c`); an object property holding one takes the key;
 * - the anonymous default export (`export default function () {}`, `export default () => {}`)
 *   is `default`;
 * - anything else (callbacks, parameter defaults, `x ||= () => {}`) is `(anonymous)`.
 * Parentheses around the expression are looked through; `as`, `satisfies` and calls are not.
 */
export function functionName(source: Source, node: FunctionWithBody, scope: Scope): string {
  if (typescript.isConstructorDeclaration(node))
    return `${scope.className ?? ANONYMOUS}.constructor`;
  if (typescript.isMethodDeclaration(node) || typescript.isAccessor(node)) {
    const member = propertyName(source, node.name) ?? ANONYMOUS;
    return typescript.isClassLike(node.parent)
      ? `${scope.className ?? ANONYMOUS}.${member}`
      : member;
  }
  if (node.name !== undefined) return textOf(source, node.name);
  return typescript.isFunctionDeclaration(node)
    ? DEFAULT_EXPORT
    : contextualName(source, node, scope);
}

/** The name of a class: declared, `default` for `export default class {}`, else by context. */
export function className(source: Source, node: ts.ClassLikeDeclaration, scope: Scope): string {
  if (node.name !== undefined) return textOf(source, node.name);
  return typescript.isClassDeclaration(node) ? DEFAULT_EXPORT : contextualName(source, node, scope);
}

function contextualName(source: Source, node: ts.Expression, scope: Scope): string {
  const parent = parentBeyondParentheses(node);
  if (typescript.isVariableDeclaration(parent)) {
    return typescript.isIdentifier(parent.name) ? textOf(source, parent.name) : ANONYMOUS;
  }
  if (
    typescript.isBinaryExpression(parent) &&
    parent.operatorToken.kind === typescript.SyntaxKind.EqualsToken
  ) {
    // `[b = () => 2] = c`: a default value inside a destructuring pattern, not an assignment
    // (oxc sees a pattern there; TypeScript's parser an `=` expression).
    return inDestructuringPattern(parent) ? ANONYMOUS : assignedName(source, parent.left);
  }
  if (typescript.isPropertyAssignment(parent))
    return propertyName(source, parent.name) ?? ANONYMOUS;
  if (typescript.isPropertyDeclaration(parent)) {
    return `${scope.className ?? ANONYMOUS}.${propertyName(source, parent.name) ?? ANONYMOUS}`;
  }
  if (typescript.isExportAssignment(parent)) return DEFAULT_EXPORT;
  return ANONYMOUS;
}

/**
 * Whether `node` sits in the target of a destructuring assignment: inside array or object
 * literals (through their elements and properties) that are the left side of an `=` or the
 * variable of a for-in/for-of loop.
 */
function inDestructuringPattern(node: ts.Node): boolean {
  let child: ts.Node = node;
  let current = node.parent;
  while (
    typescript.isArrayLiteralExpression(current) ||
    typescript.isObjectLiteralExpression(current) ||
    typescript.isPropertyAssignment(current) ||
    typescript.isShorthandPropertyAssignment(current) ||
    typescript.isSpreadElement(current) ||
    typescript.isSpreadAssignment(current) ||
    typescript.isParenthesizedExpression(current)
  ) {
    child = current;
    current = current.parent;
  }
  if (child === node) return false;
  if (typescript.isBinaryExpression(current))
    return (
      current.operatorToken.kind === typescript.SyntaxKind.EqualsToken && current.left === child
    );
  return (
    (typescript.isForOfStatement(current) || typescript.isForInStatement(current)) &&
    current.initializer === child
  );
}

function assignedName(source: Source, target: ts.Expression): string {
  if (typescript.isIdentifier(target)) return textOf(source, target);
  if (typescript.isPropertyAccessExpression(target)) return textOf(source, target.name);
  return ANONYMOUS;
}

export function functionKind(node: FunctionWithBody): FunctionKind {
  if (typescript.isArrowFunction(node)) return 'arrow';
  if (typescript.isConstructorDeclaration(node)) return 'constructor';
  if (typescript.isAccessor(node)) return 'accessor';
  return typescript.isMethodDeclaration(node) ? 'method' : 'function';
}

/** Parameters as declared; the `this` parameter is not one. */
export function parameterCount(node: ts.SignatureDeclarationBase): number {
  return node.parameters.filter((p) => !(typescript.isIdentifier(p.name) && p.name.text === 'this'))
    .length;
}

export function isAbstract(node: ts.Node): boolean {
  return hasModifier(node, typescript.SyntaxKind.AbstractKeyword);
}
