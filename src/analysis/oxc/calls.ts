import type {
  Argument,
  CallExpression,
  Expression,
  ImportExpression,
  MemberExpression,
  NewExpression,
  Node,
  TaggedTemplateExpression,
  TSImportType,
} from 'oxc-parser';
import {
  CONTAINER_METHODS,
  diLibraryOf,
  EVENT_METHODS,
  isContainerName,
  reflectionOfConstruction,
  reflectionOfGlobalCall,
} from '../javascript-conventions.js';
import { requireBindings } from './bindings.js';
import { isIdentifierNamed, literalText, type Scope, type Source, textOf } from './syntax.js';

/**
 * Calls, by the rules written down in typescript/calls.ts. A tagged template is a call of its
 * tag with no argument list.
 */
export function recordCall(
  source: Source,
  node: CallExpression | TaggedTemplateExpression,
  scope: Scope,
): void {
  if (scope.inType) return;
  const callee = node.type === 'CallExpression' ? node.callee : node.tag;
  const first = node.type === 'CallExpression' ? node.arguments[0] : undefined;
  const target = withoutWrappers(callee);
  const name = calleeName(source, target);
  if (name !== null) scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  if (target.type === 'Identifier') recordGlobalCall(source, node, textOf(source, target), first);
  else if (target.type === 'MemberExpression' && !target.computed)
    recordMethodCall(source, node, target, first);
}

export function recordConstruction(source: Source, node: NewExpression, scope: Scope): void {
  const target = withoutWrappers(node.callee);
  const name = calleeName(source, target);
  if (name === null) return;
  scope.fn?.calls.push(name);
  recordQualifiedCall(source, target);
  const kind = target.type === 'Identifier' ? reflectionOfConstruction(target.name) : null;
  if (kind !== null) source.facts.addReflection(kind, node.start);
}

/** `Reflect.x`, called or not. */
export function recordMemberAccess(source: Source, node: MemberExpression): void {
  if (!node.computed && isIdentifierNamed(node.object, 'Reflect')) {
    source.facts.addReflection('reflect', node.object.start);
  }
}

/** `import('./x').T` and `typeof import('./x')` in a type: a type-only reference. */
export function recordTypeImport(source: Source, node: TSImportType): void {
  const specifier = literalText(source, node.source);
  if (specifier === null) return;
  const fact = { specifier, typeOnly: true, reexport: false, dynamic: false, bindings: [] };
  source.facts.addImport(fact, node.start);
  recordDiLibrary(source, specifier, node.start);
}

/** `import(…)`: ESTree's ImportExpression, TypeScript's call of the `import` keyword. */
export function recordDynamicImport(source: Source, node: ImportExpression): void {
  const specifier = literalText(source, node.source);
  if (specifier === null) {
    source.facts.addReflection('dynamic-import', node.start);
    return;
  }
  const fact = { specifier, typeOnly: false, reexport: false, dynamic: true, bindings: [] };
  source.facts.addImport(fact, node.start);
  recordDiLibrary(source, specifier, node.start);
}

/**
 * The callee as TypeScript sees it: without `!`, and without the ChainExpression ESTree wraps
 * around an optional chain (TypeScript marks the chain's nodes instead).
 */
function withoutWrappers(node: Expression): Expression {
  let current = node;
  while (current.type === 'TSNonNullExpression' || current.type === 'ChainExpression')
    current = current.expression;
  return current;
}

function recordQualifiedCall(source: Source, callee: Expression): void {
  const path = dottedName(source, callee);
  if (path !== null) source.facts.addQualifiedCall(path);
}

/** `a.b.c` for a chain of names (FileFacts.qualifiedCalls), else null. */
function dottedName(source: Source, node: Expression): string | null {
  if (node.type === 'Identifier') return textOf(source, node);
  if (node.type !== 'MemberExpression' || node.computed) return null;
  if (node.property.type !== 'Identifier') return null;
  const object = dottedName(source, node.object);
  return object === null ? null : `${object}.${textOf(source, node.property)}`;
}

function calleeName(source: Source, callee: Expression): { name: string; at: number } | null {
  if (callee.type === 'Identifier') return { name: textOf(source, callee), at: callee.start };
  if (callee.type === 'Super') return { name: 'super', at: callee.start };
  if (callee.type === 'MemberExpression' && !callee.computed) {
    return { name: textOf(source, callee.property), at: callee.property.start };
  }
  return null;
}

function recordGlobalCall(source: Source, call: Node, name: string, first?: Argument): void {
  const at = call.start;
  if (name === 'require') {
    const specifier = literalText(source, first);
    if (specifier === null) {
      source.facts.addReflection('dynamic-require', at);
      return;
    }
    const bindings = requireBindings(source);
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
  call: Node,
  member: MemberExpression,
  first: Argument | undefined,
): void {
  const method = textOf(source, member.property);
  const at = member.property.start;
  if (EVENT_METHODS.has(method)) {
    source.facts.addEventSubscription(method, literalText(source, first), at);
  }
  const receiver = receiverName(member.object);
  if (CONTAINER_METHODS.has(method) && receiver !== null && isContainerName(receiver)) {
    source.facts.addDiContainer(null, at);
  }
  if (method === 'revocable' && isIdentifierNamed(member.object, 'Proxy')) {
    source.facts.addReflection('proxy', call.start);
  }
}

/** TypeScript's `text` of the receiver's name: decoded, a private name with its `#`. */
function receiverName(object: Expression): string | null {
  if (object.type === 'Identifier') return object.name;
  if (object.type !== 'MemberExpression' || object.computed) return null;
  const { property } = object;
  return property.type === 'PrivateIdentifier' ? `#${property.name}` : property.name;
}

function recordDiLibrary(source: Source, specifier: string, at: number): void {
  const library = diLibraryOf(specifier);
  if (library !== null) source.facts.addDiContainer(library, at);
}
