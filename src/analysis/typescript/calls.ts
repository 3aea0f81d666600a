import type * as ts from 'typescript';
import {
  CONTAINER_METHODS,
  diLibraryOf,
  EVENT_METHODS,
  isContainerName,
  reflectionOfConstruction,
  reflectionOfGlobalCall,
} from '../javascript-conventions.js';
import { typescript } from '../typescript-runtime.js';
import { requireBindings } from './bindings.js';
import {
  isIdentifierNamed,
  literalText,
  type Scope,
  type Source,
  startOf,
  textOf,
} from './syntax.js';

/**
 * Calls. Rules shared with the oxc extractor:
 * - a callee is named by its identifier, the last property of a member chain (private `#m`
 *   included), or `super`; `a.b!()` looks through the `!`; anything else (`a[b]()`, `(f)()`,
 *   `f()()`) is computed and skipped; `new X()` is a call of `X`, a tagged template a call of
 *   its tag, `import()` is not a call (it is an import) while `require()` is both;
 * - `import('x')`/`require('x')` with a string (or substitution-free template) literal are
 *   dynamic imports; with anything else they are `dynamic-import`/`dynamic-require` reflection;
 *   `import('x')` inside a type is a type-only, non-dynamic import (a type reference);
 * - reflection: `eval(…)`, `Function(…)`, `new Function(…)`, `new Proxy(…)`,
 *   `Proxy.revocable(…)`, any `Reflect.x`; at the line where the expression starts;
 * - event subscriptions and container calls are at the line of the method's name.
 * A tagged template is a call of its tag with no argument list.
 */
export function recordCall(
  source: Source,
  node: ts.CallExpression | ts.TaggedTemplateExpression,
  scope: Scope,
): void {
  const callee = typescript.isCallExpression(node) ? node.expression : node.tag;
  const first = typescript.isCallExpression(node) ? node.arguments[0] : undefined;
  if (callee.kind === typescript.SyntaxKind.ImportKeyword) {
    recordDynamicImport(source, node, first);
    return;
  }
  if (scope.inType) return;
  const target = withoutNonNull(callee);
  const name = calleeName(source, target);
  if (name !== null) scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  if (typescript.isIdentifier(target))
    recordGlobalCall(source, node, textOf(source, target), first);
  else if (typescript.isPropertyAccessExpression(target))
    recordMethodCall(source, node, target, first);
}

export function recordConstruction(source: Source, node: ts.NewExpression, scope: Scope): void {
  const target = withoutNonNull(node.expression);
  const name = calleeName(source, target);
  if (name === null) return;
  scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  const kind = typescript.isIdentifier(target) ? reflectionOfConstruction(target.text) : null;
  if (kind !== null) source.facts.addReflection(kind, startOf(source, node));
}

/** `Reflect.x`, called or not. */
export function recordMemberAccess(source: Source, node: ts.PropertyAccessExpression): void {
  if (isIdentifierNamed(node.expression, 'Reflect')) {
    source.facts.addReflection('reflect', startOf(source, node.expression));
  }
}

/** `import('./x').T` and `typeof import('./x')` in a type: a type-only reference. */
export function recordTypeImport(source: Source, node: ts.ImportTypeNode): void {
  const literal = typescript.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined;
  const specifier = literalText(source, literal);
  if (specifier === null) return;
  const at = source.text.indexOf('import', startOf(source, node));
  const fact = { specifier, typeOnly: true, reexport: false, dynamic: false, bindings: [] };
  source.facts.addImport(fact, at);
  recordDiLibrary(source, specifier, at);
}

function withoutNonNull(node: ts.Expression): ts.Expression {
  let current = node;
  while (typescript.isNonNullExpression(current)) current = current.expression;
  return current;
}

function recordQualifiedCall(source: Source, callee: ts.Expression): void {
  const path = dottedName(source, callee);
  if (path !== null) source.facts.addQualifiedCall(path);
}

/** `a.b.c` for a chain of names (FileFacts.qualifiedCalls), else null. */
function dottedName(source: Source, node: ts.Expression): string | null {
  if (typescript.isIdentifier(node)) return textOf(source, node);
  if (!typescript.isPropertyAccessExpression(node) || !typescript.isIdentifier(node.name)) {
    return null;
  }
  const object = dottedName(source, node.expression);
  return object === null ? null : `${object}.${textOf(source, node.name)}`;
}

function calleeName(source: Source, callee: ts.Expression): { name: string; at: number } | null {
  if (typescript.isIdentifier(callee))
    return { name: textOf(source, callee), at: startOf(source, callee) };
  if (callee.kind === typescript.SyntaxKind.SuperKeyword)
    return { name: 'super', at: startOf(source, callee) };
  if (typescript.isPropertyAccessExpression(callee)) {
    return { name: textOf(source, callee.name), at: startOf(source, callee.name) };
  }
  return null;
}

function recordDynamicImport(
  source: Source,
  call: ts.Node,
  first: ts.Expression | undefined,
): void {
  const specifier = literalText(source, first);
  const at = startOf(source, call);
  if (specifier === null) {
    source.facts.addReflection('dynamic-import', at);
    return;
  }
  const fact = { specifier, typeOnly: false, reexport: false, dynamic: true, bindings: [] };
  source.facts.addImport(fact, at);
  recordDiLibrary(source, specifier, at);
}

function recordGlobalCall(
  source: Source,
  call: ts.Node,
  name: string,
  first?: ts.Expression,
): void {
  const at = startOf(source, call);
  if (name === 'require') {
    const specifier = literalText(source, first);
    if (specifier === null) {
      source.facts.addReflection('dynamic-require', at);
      return;
    }
    const bindings = requireBindings(source, call);
    const fact = { specifier, typeOnly: false, reexport: false, dynamic: true, bindings };
    source.facts.addImport(fact, at);
    recordDiLibrary(source, specifier, at);
    return;
  }
  const kind = reflectionOfGlobalCall(name);
  if (kind !== null) source.facts.addReflection(kind, at);
}

function recordMethodCall(
  source: Source,
  call: ts.Node,
  member: ts.PropertyAccessExpression,
  first: ts.Expression | undefined,
): void {
  const method = textOf(source, member.name);
  const at = startOf(source, member.name);
  if (EVENT_METHODS.has(method)) {
    source.facts.addEventSubscription(method, literalText(source, first), at);
  }
  const receiver = receiverName(member.expression);
  if (CONTAINER_METHODS.has(method) && receiver !== null && isContainerName(receiver)) {
    source.facts.addDiContainer(null, at);
  }
  if (method === 'revocable' && isIdentifierNamed(member.expression, 'Proxy')) {
    source.facts.addReflection('proxy', startOf(source, call));
  }
}

function receiverName(object: ts.Expression): string | null {
  if (typescript.isIdentifier(object)) return object.text;
  return typescript.isPropertyAccessExpression(object) ? object.name.text : null;
}

function recordDiLibrary(source: Source, specifier: string, at: number): void {
  const library = diLibraryOf(specifier);
  if (library !== null) source.facts.addDiContainer(library, at);
}
