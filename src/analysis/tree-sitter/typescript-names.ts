import type { Node } from 'web-tree-sitter';
import type { FunctionKind } from '../../model/facts.js';
import { ANONYMOUS, DEFAULT_EXPORT } from './javascript-conventions.js';
import {
  hasToken,
  namedChildren,
  parentBeyondParentheses,
  propertyName,
  type Scope,
  type Source,
  textOf,
} from './typescript-syntax.js';

/**
 * Naming rules (FunctionFact.name) as read from tree-sitter's TS/JS trees; the TypeScript
 * extractor applies the same ones to its own tree:
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
export function functionName(source: Source, node: Node, scope: Scope): string {
  if (node.type === 'method_definition') {
    const member = propertyName(source, node.childForFieldName('name')) ?? ANONYMOUS;
    return node.parent?.type === 'class_body'
      ? `${scope.className ?? ANONYMOUS}.${member}`
      : member;
  }
  return declaredName(source, node) ?? contextualName(source, node, scope);
}

/** The name of a class: declared, else from where the class expression stands. */
export function className(source: Source, node: Node, scope: Scope): string {
  return declaredName(source, node) ?? contextualName(source, node, scope);
}

function declaredName(source: Source, node: Node): string | null {
  const name = node.childForFieldName('name');
  return name === null ? null : textOf(source, name);
}

function contextualName(source: Source, node: Node, scope: Scope): string {
  const { parent } = parentBeyondParentheses(node);
  switch (parent?.type) {
    case 'variable_declarator': {
      const name = parent.childForFieldName('name');
      return name?.type === 'identifier' ? textOf(source, name) : ANONYMOUS;
    }
    case 'assignment_expression':
      return assignedName(source, parent.childForFieldName('left'));
    case 'pair':
      return propertyName(source, parent.childForFieldName('key')) ?? ANONYMOUS;
    case 'public_field_definition':
    case 'field_definition': {
      const field = parent.childForFieldName('name') ?? parent.childForFieldName('property');
      return `${scope.className ?? ANONYMOUS}.${propertyName(source, field) ?? ANONYMOUS}`;
    }
    case 'export_statement':
      return DEFAULT_EXPORT;
    default:
      return ANONYMOUS;
  }
}

function assignedName(source: Source, target: Node | null): string {
  if (target?.type === 'identifier') return textOf(source, target);
  if (target?.type === 'member_expression') {
    return propertyName(source, target.childForFieldName('property')) ?? ANONYMOUS;
  }
  return ANONYMOUS;
}

export function functionKind(source: Source, node: Node): FunctionKind {
  if (node.type === 'arrow_function') return 'arrow';
  if (node.type !== 'method_definition') return 'function';
  if (hasToken(node, 'get') || hasToken(node, 'set')) return 'accessor';
  const name = node.childForFieldName('name');
  const isConstructor =
    name?.type === 'property_identifier' && textOf(source, name) === 'constructor';
  return isConstructor && node.parent?.type === 'class_body' ? 'constructor' : 'method';
}

/** Parameters as declared; TypeScript's `this` parameter is not one. */
export function parameterCount(node: Node): number {
  if (node.childForFieldName('parameter') !== null) return 1;
  const list = node.childForFieldName('parameters');
  if (list === null) return 0;
  return namedChildren(list).filter((parameter) => !isThisParameter(parameter)).length;
}

function isThisParameter(parameter: Node): boolean {
  return parameter.childForFieldName('pattern')?.type === 'this';
}

/**
 * Where a declaration's span starts: at its decorators and at the `export`, `export default`
 * or `declare` that wraps it (TypeScript's node start). Arrow functions are expressions: even
 * `export default () => {}` starts at the arrow.
 */
export function declarationStart(node: Node): number {
  let start = node.startIndex;
  if (node.type === 'arrow_function') return start;
  let parent = node.parent;
  while (
    parent !== null &&
    (parent.type === 'export_statement' || parent.type === 'ambient_declaration')
  ) {
    start = parent.startIndex;
    parent = parent.parent;
  }
  return start;
}
