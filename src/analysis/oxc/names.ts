import type {
  ArrowFunctionExpression,
  Class,
  Function as FunctionNode,
  MethodDefinition,
  Node,
  ObjectProperty,
  ParamPattern,
} from 'oxc-parser';
import type { FunctionKind } from '../../model/facts.js';
import { ANONYMOUS, DEFAULT_EXPORT } from '../javascript-conventions.js';
import {
  memberName,
  nameOf,
  parentBeyondParentheses,
  type Scope,
  type Source,
  textOf,
} from './syntax.js';

/**
 * A function with a body: what gets a FunctionFact. A method is its MethodDefinition or object
 * Property (whose span TypeScript gives the method), not the FunctionExpression ESTree holds
 * as its value.
 */
export type FunctionLike = FunctionNode | ArrowFunctionExpression | ClassMethod | ObjectMethod;

export type ClassMethod = MethodDefinition & { readonly type: 'MethodDefinition' };
export type ObjectMethod = ObjectProperty & { readonly value: FunctionNode };

/** FunctionFact.name, by the rules written down in typescript/names.ts. */
export function functionName(source: Source, node: FunctionLike, scope: Scope): string {
  if (node.type === 'MethodDefinition') {
    const member = isConstructor(source, node) ? 'constructor' : memberName(source, node);
    return `${scope.className ?? ANONYMOUS}.${member}`;
  }
  if (node.type === 'Property') return memberName(source, node);
  if (node.id !== null) return textOf(source, node.id);
  return node.type === 'FunctionDeclaration' ? DEFAULT_EXPORT : contextualName(source, node, scope);
}

/** The name of a class: declared, `default` for `export default class {}`, else by context. */
export function className(source: Source, node: Class, scope: Scope): string {
  if (node.id !== null) return textOf(source, node.id);
  return node.type === 'ClassDeclaration' ? DEFAULT_EXPORT : contextualName(source, node, scope);
}

/**
 * The name an expression being visited takes from where it stands: as a value, not as the
 * computed key of a property (`{ [() => k]: v }`), which ESTree holds without brackets, in the
 * property itself.
 */
function contextualName(source: Source, node: Node, scope: Scope): string {
  const parent = parentBeyondParentheses(source);
  const isValue = (value: Node | null) => value !== null && value.start <= node.start;
  switch (parent?.type) {
    case 'VariableDeclarator':
      return parent.id.type === 'Identifier' ? textOf(source, parent.id) : ANONYMOUS;
    case 'AssignmentExpression':
      return parent.operator === '=' ? assignedName(source, parent.left) : ANONYMOUS;
    case 'Property':
      return isValue(parent.value) ? memberName(source, parent) : ANONYMOUS;
    case 'PropertyDefinition':
    case 'AccessorProperty':
      if (!isValue(parent.value)) return ANONYMOUS;
      return `${scope.className ?? ANONYMOUS}.${memberName(source, parent)}`;
    case 'ExportDefaultDeclaration':
    case 'TSExportAssignment':
      return DEFAULT_EXPORT;
    default:
      return ANONYMOUS;
  }
}

function assignedName(source: Source, target: Node): string {
  if (target.type === 'Identifier') return textOf(source, target);
  if (target.type === 'MemberExpression' && !target.computed)
    return textOf(source, target.property);
  return ANONYMOUS;
}

export function functionKind(source: Source, node: FunctionLike): FunctionKind {
  switch (node.type) {
    case 'ArrowFunctionExpression':
      return 'arrow';
    case 'MethodDefinition':
      if (isConstructor(source, node)) return 'constructor';
      return node.kind === 'get' || node.kind === 'set' ? 'accessor' : 'method';
    case 'Property':
      return node.kind === 'init' ? 'method' : 'accessor';
    default:
      return 'function';
  }
}

/**
 * TypeScript's constructor: also `static constructor()` and `async constructor()`, which it
 * parses as constructors (and rejects later), where ESTree sees methods.
 */
export function isConstructor(source: Source, node: MethodDefinition): boolean {
  if (node.kind === 'constructor') return true;
  const { key } = node;
  return (
    node.kind === 'method' &&
    !node.computed &&
    !node.value.generator &&
    (key.type === 'Identifier' || key.type === 'Literal') &&
    nameOf(source, key) === 'constructor'
  );
}

/** Parameters as declared; the `this` parameter is not one. */
export function parameterCount(node: FunctionLike): number {
  const params: readonly ParamPattern[] =
    node.type === 'MethodDefinition' || node.type === 'Property' ? node.value.params : node.params;
  return params.filter((p) => !(p.type === 'Identifier' && p.name === 'this')).length;
}
