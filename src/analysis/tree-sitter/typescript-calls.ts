import type { Node } from 'web-tree-sitter';
import {
  CONTAINER_METHODS,
  diLibraryOf,
  EVENT_METHODS,
  isContainerName,
  reflectionOfConstruction,
  reflectionOfGlobalCall,
} from './javascript-conventions.js';
import { requireBindings } from './typescript-bindings.js';
import {
  firstArgument,
  literalText,
  type Scope,
  type Source,
  textOf,
  unwrapNonNull,
} from './typescript-syntax.js';

/**
 * Calls in tree-sitter's TS/JS tree. Rules shared with the TypeScript extractor:
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
 */
export function recordCall(source: Source, node: Node, scope: Scope): void {
  const callee = node.childForFieldName('function');
  if (callee === null) return;
  if (callee.type === 'import') {
    recordDynamicImport(source, node, scope.inType);
    return;
  }
  if (scope.inType) return;
  const target = calleeOf(callee);
  if (isMisreadAwait(source, target)) return;
  const name = calleeName(source, target);
  if (name !== null) scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  if (target.type === 'identifier' && name !== null) recordGlobalCall(source, node, name.name);
  else if (target.type === 'member_expression') recordMethodCall(source, node, target);
}

export function recordConstruction(source: Source, node: Node, scope: Scope): void {
  const constructed = node.childForFieldName('constructor');
  if (constructed === null) return;
  const target = unwrapNonNull(constructed);
  const name = calleeName(source, target);
  if (name === null) return;
  scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  const kind = target.type === 'identifier' ? reflectionOfConstruction(name.name) : null;
  if (kind !== null) source.facts.addReflection(kind, node.startIndex);
}

/** `Reflect.x`, called or not. */
export function recordMemberAccess(source: Source, node: Node): void {
  const object = node.childForFieldName('object');
  if (object?.type === 'identifier' && textOf(source, object) === 'Reflect') {
    source.facts.addReflection('reflect', object.startIndex);
  }
}

/**
 * The expression called, past a `!`. tree-sitter-typescript reads `await f<T>(x)` as
 * `(await f)<T>(x)` (a written `(await f)()` is a parenthesized_expression): the call is `f`'s.
 */
function calleeOf(callee: Node): Node {
  const target = unwrapNonNull(callee);
  const awaited = target.type === 'await_expression' ? target.namedChild(0) : null;
  return awaited === null ? target : unwrapNonNull(awaited);
}

/**
 * tree-sitter-javascript reads `await (a, b)(c)` in an async function as a call of a function
 * named `await` (the grammar does not know it is inside `async`); TypeScript rightly sees an
 * await of a computed call. A function named `await` is not worth the confusion: not a call.
 */
function isMisreadAwait(source: Source, callee: Node): boolean {
  return callee.type === 'identifier' && textOf(source, callee) === 'await';
}

function recordQualifiedCall(source: Source, callee: Node): void {
  const path = dottedName(source, callee);
  if (path !== null) source.facts.addQualifiedCall(path);
}

/** `a.b.c` for a chain of names (FileFacts.qualifiedCalls), else null. */
function dottedName(source: Source, node: Node): string | null {
  if (node.type === 'identifier') return textOf(source, node);
  if (node.type !== 'member_expression') return null;
  const property = node.childForFieldName('property');
  const object = node.childForFieldName('object');
  if (property?.type !== 'property_identifier' || object === null) return null;
  const head = dottedName(source, object);
  return head === null ? null : `${head}.${textOf(source, property)}`;
}

function calleeName(source: Source, callee: Node): { name: string; at: number } | null {
  switch (callee.type) {
    case 'identifier':
    case 'super':
      return { name: textOf(source, callee), at: callee.startIndex };
    case 'member_expression': {
      const property = callee.childForFieldName('property');
      return property === null ? null : { name: textOf(source, property), at: property.startIndex };
    }
    default:
      return null;
  }
}

function recordDynamicImport(source: Source, call: Node, inType: boolean): void {
  const specifier = literalText(source, firstArgument(call));
  const { facts } = source;
  if (specifier === null) {
    if (!inType) facts.addReflection('dynamic-import', call.startIndex);
    return;
  }
  facts.addImport(
    { specifier, typeOnly: inType, reexport: false, dynamic: !inType, bindings: [] },
    call.startIndex,
  );
  recordDiLibrary(source, specifier, call.startIndex);
}

function recordGlobalCall(source: Source, call: Node, name: string): void {
  if (name === 'require') {
    const specifier = literalText(source, firstArgument(call));
    if (specifier === null) {
      source.facts.addReflection('dynamic-require', call.startIndex);
      return;
    }
    const bindings = requireBindings(source, call);
    const fact = { specifier, typeOnly: false, reexport: false, dynamic: true, bindings };
    source.facts.addImport(fact, call.startIndex);
    recordDiLibrary(source, specifier, call.startIndex);
    return;
  }
  const kind = reflectionOfGlobalCall(name);
  if (kind !== null) source.facts.addReflection(kind, call.startIndex);
}

function recordMethodCall(source: Source, call: Node, member: Node): void {
  const property = member.childForFieldName('property');
  const object = member.childForFieldName('object');
  if (property === null || object === null) return;
  const method = textOf(source, property);
  if (EVENT_METHODS.has(method)) {
    const event = literalText(source, firstArgument(call));
    source.facts.addEventSubscription(method, event, property.startIndex);
  }
  const receiver = receiverName(source, object);
  if (CONTAINER_METHODS.has(method) && receiver !== null && isContainerName(receiver)) {
    source.facts.addDiContainer(null, property.startIndex);
  }
  if (
    method === 'revocable' &&
    object.type === 'identifier' &&
    textOf(source, object) === 'Proxy'
  ) {
    source.facts.addReflection('proxy', call.startIndex);
  }
}

function receiverName(source: Source, object: Node): string | null {
  if (object.type === 'identifier') return textOf(source, object);
  const property =
    object.type === 'member_expression' ? object.childForFieldName('property') : null;
  return property === null ? null : textOf(source, property);
}

function recordDiLibrary(source: Source, specifier: string, at: number): void {
  const library = diLibraryOf(specifier);
  if (library !== null) source.facts.addDiContainer(library, at);
}
