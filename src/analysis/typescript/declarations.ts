import type * as ts from 'typescript';
import { typescript } from '../typescript-runtime.js';
import { describeClass } from './classes.js';
import {
  className,
  type FunctionWithBody,
  functionKind,
  functionName,
  isAbstract,
  parameterCount,
} from './names.js';
import { rangeOf, type Scope, type Source } from './syntax.js';

export type Visit = (source: Source, node: ts.Node, scope: Scope) => void;

/**
 * A function with a body opens a FunctionFact owning what its parameters and body hold; its
 * name and decorators (a computed key, `@Dec(…)`) are evaluated outside it. Returns false for
 * a declaration without a body (an overload, `declare`, `abstract`): not a function here.
 */
export function visitFunction(source: Source, node: ts.Node, scope: Scope, visit: Visit): boolean {
  if (!isFunctionWithBody(node)) return false;
  const name = functionName(source, node, scope);
  const range = rangeOf(source, node);
  const fn = source.facts.openFunction(name, functionKind(node), range, parameterCount(node));
  const inner: Scope = { fn, className: null, inType: false };
  typescript.forEachChild(node, (child) => {
    visit(source, child, child === node.name || typescript.isDecorator(child) ? scope : inner);
  });
  return true;
}

function isFunctionWithBody(node: ts.Node): node is FunctionWithBody {
  return (
    (typescript.isFunctionDeclaration(node) ||
      typescript.isFunctionExpression(node) ||
      typescript.isArrowFunction(node) ||
      typescript.isMethodDeclaration(node) ||
      typescript.isConstructorDeclaration(node) ||
      typescript.isAccessor(node)) &&
    node.body !== undefined
  );
}

/** Members are walked knowing their class's name; decorators and heritage are outside. */
export function visitClass(
  source: Source,
  node: ts.ClassLikeDeclaration,
  scope: Scope,
  visit: Visit,
): void {
  const name = className(source, node, scope);
  // Class expressions are not classes (ClassFact); `export default class {}` is a declaration.
  if (typescript.isClassDeclaration(node)) {
    const fact = describeClass(source, node, name);
    source.facts.addClass(fact);
    if (isAbstract(node)) source.facts.addAbstraction(name, 'abstract-class', fact.range);
  }
  const members: Scope = { ...scope, className: name };
  typescript.forEachChild(node, (child) =>
    visit(source, child, typescript.isClassElement(child) ? members : scope),
  );
}
