import type { Node } from 'web-tree-sitter';
import type { FunctionKind } from '../../model/facts.js';
import type { FunctionHeader } from './facts-collector.js';
import { decoratorName, lastSegment, type PythonClassDraft, type Scope } from './python-draft.js';
import { ANONYMOUS, rangeOf } from './syntax-tree.js';

/**
 * Classes and functions of Python source.
 *
 * Class bases: `object`, `ABC`, `Protocol` and `Generic[…]` are markers, not parents; of the
 * other positional bases the first is `extends` and the rest are `implements` (Python has only
 * bases; the later ones are mixins, the nearest thing to implemented interfaces). `ABC` or
 * `metaclass=ABCMeta` or an `@abstractmethod` member make the class abstract.
 *
 * Parameters: every declared parameter, `*args` and `**kwargs` included, the `/` and `*`
 * separators not; a method's first parameter (the receiver, `self` or `cls` whatever its name)
 * is not counted unless the method is a `@staticmethod`, as Go's receiver and TypeScript's
 * `this` are not parameters either.
 */

const MARKER_BASES = new Set(['object', 'ABC', 'Protocol', 'Generic']);
const ACCESSOR_DECORATORS = new Set(['property', 'cached_property']);
const ACCESSOR_SUFFIXES = ['.setter', '.getter', '.deleter'];
const NOT_PARAMETERS = new Set(['positional_separator', 'keyword_separator', 'comment']);

/** The node whose lines a definition covers: its decorators included. */
function definitionSpanNode(definition: Node): Node {
  const parent = definition.parent;
  return parent?.type === 'decorated_definition' ? parent : definition;
}

function decoratorsOf(definition: Node): string[] {
  const spanNode = definitionSpanNode(definition);
  if (spanNode === definition) return [];
  return spanNode.namedChildren
    .filter((child) => child.type === 'decorator')
    .map((decorator) => decoratorName(decorator));
}

export function readClass(classNode: Node): PythonClassDraft {
  const bases: string[] = [];
  let declaredAbstract = false;
  let protocol = false;
  for (const base of classNode.childForFieldName('superclasses')?.namedChildren ?? []) {
    if (base.type === 'keyword_argument') {
      const isAbcMeta =
        base.childForFieldName('name')?.text === 'metaclass' &&
        lastSegment(base.childForFieldName('value')?.text ?? '') === 'ABCMeta';
      declaredAbstract ||= isAbcMeta;
      continue;
    }
    if (base.type === 'list_splat' || base.type === 'dictionary_splat' || base.type === 'comment') {
      continue;
    }
    // `Base[T]` is written as a subscript: the generic arguments are dropped.
    const written = base.type === 'subscript' ? base.childForFieldName('value') : base;
    const name = written?.text ?? base.text;
    const marker = lastSegment(name);
    declaredAbstract ||= marker === 'ABC';
    protocol ||= marker === 'Protocol';
    if (!MARKER_BASES.has(marker)) bases.push(name);
  }
  return {
    name: classNode.childForFieldName('name')?.text ?? '',
    range: rangeOf(definitionSpanNode(classNode)),
    extends: bases[0] ?? null,
    implements: bases.slice(1),
    declaredAbstract,
    protocol,
    methods: 0,
    members: 0,
    instanceMembers: 0,
    hasAbstractMethod: false,
  };
}

function countParameters(parameters: Node | null): number {
  if (parameters === null) return 0;
  return parameters.namedChildren.filter((parameter) => !NOT_PARAMETERS.has(parameter.type)).length;
}

function methodKind(name: string, decorators: readonly string[]): FunctionKind {
  if (name === '__init__') return 'constructor';
  const isAccessor = decorators.some(
    (decorator) =>
      ACCESSOR_DECORATORS.has(lastSegment(decorator)) ||
      ACCESSOR_SUFFIXES.some((suffix) => decorator.endsWith(suffix)),
  );
  return isAccessor ? 'accessor' : 'method';
}

/**
 * Records a `def` and, inside a class body, counts it as a member of the class: static when it
 * is a `@staticmethod` or `@classmethod` (neither needs an instance).
 */
export function readFunction(definition: Node, scope: Scope): FunctionHeader {
  const name = definition.childForFieldName('name')?.text ?? ANONYMOUS;
  const decorators = decoratorsOf(definition);
  const declared = countParameters(definition.childForFieldName('parameters'));
  const cls = scope.cls;
  const range = rangeOf(definitionSpanNode(definition));
  if (cls === undefined) return { name, kind: 'function', range, parameters: declared };

  const markers = decorators.map(lastSegment);
  const isStaticMethod = markers.includes('staticmethod');
  const isStatic = isStaticMethod || markers.includes('classmethod');
  cls.methods += 1;
  cls.members += 1;
  if (!isStatic) cls.instanceMembers += 1;
  if (markers.some((marker) => marker.startsWith('abstract'))) cls.hasAbstractMethod = true;
  const receiver = isStaticMethod ? 0 : 1;
  return {
    name: `${cls.name}.${name}`,
    kind: methodKind(name, decorators),
    range,
    parameters: Math.max(0, declared - receiver),
  };
}

/** The name a lambda takes from the variable or attribute it is assigned to. */
function lambdaName(lambda: Node): string {
  const assignment = lambda.parent;
  if (assignment?.type !== 'assignment') return ANONYMOUS;
  if (assignment.childForFieldName('right')?.id !== lambda.id) return ANONYMOUS;
  const target = assignment.childForFieldName('left');
  if (target?.type === 'identifier') return target.text;
  if (target?.type === 'attribute') return target.childForFieldName('attribute')?.text ?? ANONYMOUS;
  return ANONYMOUS;
}

/** Lambdas are Python's arrow functions: expression-bodied and anonymous unless assigned. */
export function readLambda(lambda: Node, scope: Scope): FunctionHeader {
  const name = lambdaName(lambda);
  const className = name === ANONYMOUS ? undefined : scope.cls?.name;
  return {
    name: className === undefined ? name : `${className}.${name}`,
    kind: 'arrow',
    range: rangeOf(lambda),
    parameters: countParameters(lambda.childForFieldName('parameters')),
  };
}
