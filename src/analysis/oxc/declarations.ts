import type {
  Class,
  ClassElement,
  MethodDefinition,
  Node,
  TSInterfaceDeclaration,
} from 'oxc-parser';
import type { ClassDraft } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import {
  type ClassMethod,
  className,
  type FunctionLike,
  functionKind,
  functionName,
  isConstructor,
  type ObjectMethod,
  parameterCount,
} from './names.js';
import { declarationStart, type Scope, type Source, textOf } from './syntax.js';
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
