import type { Node } from 'web-tree-sitter';
import { describeClass } from './typescript-classes.js';
import {
  className,
  declarationStart,
  functionKind,
  functionName,
  parameterCount,
} from './typescript-names.js';
import type { Scope, Source } from './typescript-syntax.js';

/** The walk's visitor, passed in so that this module does not import the walk (no cycle). */
export type Visit = (source: Source, node: Node, scope: Scope) => void;

export function visitNamedChildren(source: Source, node: Node, scope: Scope, visit: Visit): void {
  for (let index = 0; index < node.namedChildCount; index++) {
    const child = node.namedChild(index);
    if (child !== null) visit(source, child, scope);
  }
}

/**
 * A function with a body opens a FunctionFact that owns what its parameters and body hold;
 * its name and decorators (a computed key, `@Dec(…)`) are evaluated outside it.
 */
export function visitFunction(
  source: Source,
  node: Node,
  scope: Scope,
  start: number,
  visit: Visit,
): void {
  if (node.childForFieldName('body') === null) {
    visitNamedChildren(source, node, scope, visit);
    return;
  }
  const name = functionName(source, node, scope);
  const range = { start, end: node.endIndex };
  const fn = source.facts.openFunction(
    name,
    functionKind(source, node),
    range,
    parameterCount(node),
  );
  const inner: Scope = { fn, className: null, inType: false };
  for (let index = 0; index < node.childCount; index++) {
    const child = node.child(index);
    if (child === null || !child.isNamed) continue;
    const field = node.fieldNameForChild(index);
    visit(source, child, field === 'name' || field === 'decorator' ? scope : inner);
  }
}

export function visitClass(source: Source, node: Node, scope: Scope, visit: Visit): void {
  const name = className(source, node, scope);
  // Class expressions are not classes (ClassFact), except the anonymous default export.
  if (node.type !== 'class' || node.parent?.type === 'export_statement') {
    const fact = describeClass(source, node, name);
    source.facts.addClass(fact);
    if (fact.abstract) source.facts.addAbstraction(name, 'abstract-class', fact.range);
  }
  for (let index = 0; index < node.namedChildCount; index++) {
    const child = node.namedChild(index);
    if (child?.type === 'class_body')
      visitClassBody(source, child, { ...scope, className: name }, visit);
    else if (child !== null) visit(source, child, scope);
  }
}

/** Decorators of a member are its siblings here; the member's span starts at the first one. */
function visitClassBody(source: Source, body: Node, scope: Scope, visit: Visit): void {
  let decorated: number | null = null;
  for (let index = 0; index < body.namedChildCount; index++) {
    const member = body.namedChild(index);
    if (member === null) continue;
    if (member.type === 'method_definition') {
      visitFunction(source, member, scope, decorated ?? member.startIndex, visit);
    } else {
      visit(source, member, scope);
    }
    if (member.type === 'decorator') decorated ??= member.startIndex;
    else if (member.type !== 'comment') decorated = null;
  }
}

export function visitInterface(source: Source, node: Node, scope: Scope, visit: Visit): void {
  const name = node.childForFieldName('name');
  if (name !== null) {
    const range = { start: declarationStart(node), end: node.endIndex };
    const members = node.childForFieldName('body')?.namedChildren ?? [];
    source.facts.addAbstraction(
      source.text.slice(name.startIndex, name.endIndex),
      'interface',
      range,
      members.every(isDataMember),
    );
  }
  visitNamedChildren(source, node, { ...scope, inType: true }, visit);
}

/** A member of an interface of data: not a method (an accessor is one), call or construct signature. */
function isDataMember(member: Node): boolean {
  if (member.type === 'call_signature' || member.type === 'construct_signature') return false;
  if (member.type !== 'method_signature') return true;
  const keyword = member.child(0)?.type;
  return keyword === 'get' || keyword === 'set';
}

/** `x as T`, `x satisfies T`: the expression is code, what follows the keyword a type. */
export function visitTypeAssertion(source: Source, node: Node, scope: Scope, visit: Visit): void {
  const typeScope = { ...scope, inType: true };
  let seenExpression = false;
  for (let index = 0; index < node.namedChildCount; index++) {
    const child = node.namedChild(index);
    if (child === null) continue;
    visit(source, child, seenExpression ? typeScope : scope);
    if (child.type !== 'comment') seenExpression = true;
  }
}
