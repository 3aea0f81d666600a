import type {
  ArrowFunctionExpression,
  Class,
  ClassElement,
  Function as FunctionNode,
  MethodDefinition,
  Node,
  ObjectProperty,
  ParamPattern,
  TSInterfaceDeclaration,
} from 'oxc-parser';
import type { FunctionKind } from '../../model/facts.js';
import { ANONYMOUS, DEFAULT_EXPORT } from '../javascript-conventions.js';
import type { ClassDraft } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import {
  declarationStart,
  memberName,
  nameOf,
  parentBeyondParentheses,
  type Scope,
  type Source,
  textOf,
} from './syntax.js';
import { forEachChild, type Visit, visitChildren } from './tree-walk.js';

/**
 * The function a node is, if it has a body: a function, an arrow, a class method or an object
 * literal method or accessor. Null for a declaration without a body (an overload, `declare`,
 * `abstract`: not a function here) and for the FunctionExpression that is a method's value.
 */
export function asFunction(node: Node): FunctionLike | null {
  switch (node.type) {
    case 'FunctionDeclaration':
    case 'FunctionExpression':
      return node.body === null ? null : node;
    case 'ArrowFunctionExpression':
      return node;
    case 'MethodDefinition':
      return isClassMethod(node) ? node : null;
    case 'Property':
      return isMethod(node) ? node : null;
    default:
      return null;
  }
}

function isClassMethod(node: MethodDefinition): node is ClassMethod {
  return node.type === 'MethodDefinition' && node.value.body !== null;
}

function isMethod(node: Extract<Node, { type: 'Property' }>): node is ObjectMethod {
  const { value } = node;
  const method = node.method || node.kind !== 'init';
  return method && value.type === 'FunctionExpression' && value.body !== null;
}

/**
 * A function with a body opens a FunctionFact owning what its parameters and body hold; its
 * name and decorators (a computed key, `@Dec(…)`) are evaluated outside it.
 */
export function visitFunction(source: Source, node: FunctionLike, scope: Scope, visit: Visit) {
  const name = functionName(source, node, scope);
  const start = node.type === 'FunctionDeclaration' ? declarationStart(source, node) : node.start;
  const range = { start, end: node.end };
  const { facts } = source;
  const kind = functionKind(source, node);
  const fn = facts.openFunction({ name, kind, range, parameters: parameterCount(node) });
  const inner: Scope = { fn, className: null, inType: false };
  if (node.type === 'MethodDefinition' || node.type === 'Property') {
    // The method's parameters and body are in its value, a FunctionExpression of no fact.
    forEachChild(source, node, (child, key) => {
      if (key === 'value') visitChildren(source, child, inner, visit);
      else visit(source, child, scope);
    });
    return;
  }
  forEachChild(source, node, (child, key) => visit(source, child, key === 'id' ? scope : inner));
}

/** Members are walked knowing their class's name; decorators and heritage are outside. */
export function visitClass(source: Source, node: Class, scope: Scope, visit: Visit): void {
  const name = className(source, node, scope);
  // Class expressions are not classes (ClassFact); `export default class {}` is a declaration.
  if (node.type === 'ClassDeclaration') {
    const range = { start: declarationStart(source, node), end: node.end };
    const fact = describeClass(source, node, name, range);
    source.facts.addClass(fact);
    if (node.abstract === true) source.facts.addAbstraction(name, 'abstract-class', range);
  }
  const members: Scope = { ...scope, className: name };
  const types: Scope = { ...scope, inType: true };
  forEachChild(source, node, (child, key) => {
    if (key === 'body') forEachChild(source, child, (member) => visit(source, member, members));
    else visit(source, child, key === 'implements' ? types : scope);
  });
}

/** An interface is an abstraction; nothing in it is code. */
export function visitInterface(
  source: Source,
  node: TSInterfaceDeclaration,
  scope: Scope,
  visit: Visit,
): void {
  const range = { start: declarationStart(source, node), end: node.end };
  const dataOnly = node.body.body.every(
    (member) =>
      member.type === 'TSPropertySignature' ||
      member.type === 'TSIndexSignature' ||
      (member.type === 'TSMethodSignature' && member.kind !== 'method'),
  );
  const bases = (node.extends ?? []).map((base) => textOf(source, base.expression));
  source.facts.addAbstraction(textOf(source, node.id), 'interface', range, dataOnly, bases);
  visitChildren(source, node, { ...scope, inType: true }, visit);
}

/** A class declaration's fact, by the rules written down in typescript/classes.ts. */
function describeClass(source: Source, node: Class, name: string, range: TextRange): ClassDraft {
  const members = node.body.body.map((member) => describeMember(source, member));
  return {
    name,
    range,
    // The expression as written: ESTree keeps its generic arguments apart, as TypeScript does.
    extends: node.superClass === null ? null : textOf(source, node.superClass),
    implements: (node.implements ?? []).map((type) => textOf(source, type.expression)),
    abstract: node.abstract === true,
    staticOnly: members.length > 0 && members.every((member) => member.static),
    methods: members.filter((member) => member.method).length,
  };
}

interface Member {
  readonly static: boolean;
  readonly method: boolean;
}

function describeMember(source: Source, node: ClassElement): Member {
  switch (node.type) {
    case 'MethodDefinition':
      if (isConstructor(source, node)) return { static: false, method: node.value.body !== null };
      return { static: node.static, method: node.value.body !== null };
    case 'TSAbstractMethodDefinition':
      return { static: node.static, method: true };
    case 'StaticBlock':
      return { static: true, method: false };
    default:
      // Fields, `accessor` fields and index signatures.
      return { static: node.static, method: false };
  }
}

/**
 * A function with a body: what gets a FunctionFact. A method is its MethodDefinition or object
 * Property (whose span TypeScript gives the method), not the FunctionExpression ESTree holds
 * as its value.
 */
export type FunctionLike = FunctionNode | ArrowFunctionExpression | ClassMethod | ObjectMethod;

export type ClassMethod = MethodDefinition & { readonly type: 'MethodDefinition' };
export type ObjectMethod = ObjectProperty & { readonly value: FunctionNode };

/** FunctionFact.name, by the rules written down in model/facts.ts. */
function functionName(source: Source, node: FunctionLike, scope: Scope): string {
  if (node.type === 'MethodDefinition') {
    const member = isConstructor(source, node) ? 'constructor' : memberName(source, node);
    return `${scope.className ?? ANONYMOUS}.${member}`;
  }
  if (node.type === 'Property') return memberName(source, node);
  if (node.id !== null) return textOf(source, node.id);
  return node.type === 'FunctionDeclaration' ? DEFAULT_EXPORT : contextualName(source, node, scope);
}

/** The name of a class: declared, `default` for `export default class {}`, else by context. */
function className(source: Source, node: Class, scope: Scope): string {
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

function functionKind(source: Source, node: FunctionLike): FunctionKind {
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
function isConstructor(source: Source, node: MethodDefinition): boolean {
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
function parameterCount(node: FunctionLike): number {
  const params: readonly ParamPattern[] =
    node.type === 'MethodDefinition' || node.type === 'Property' ? node.value.params : node.params;
  return params.filter((p) => !(p.type === 'Identifier' && p.name === 'this')).length;
}
