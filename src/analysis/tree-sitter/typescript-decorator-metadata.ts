import type { Node } from 'web-tree-sitter';
import type { DecoratorMode } from '../../model/facts.js';
import { identifierName } from './import-uses.js';
import { hasToken, namedChildren, type Source, textOf } from './typescript-syntax.js';

export const CLASS_DECLARATIONS = new Set(['class_declaration', 'abstract_class_declaration']);

/**
 * Decorator metadata of a class declaration (by TypeScript's checker,
 * markDecoratorAliasReferenced; the rules are written down in typescript/decorator-metadata.ts
 * recordDecorator): the constructor's parameter types when the class is decorated; a
 * decorated member's types; with legacy decorators, a decorated parameter's method or
 * constructor. Class expressions' members allow standard decorators only.
 */
export function recordClassMetadata(source: Source, node: Node): void {
  if (isAmbient(node)) return;
  const body = node.childForFieldName('body');
  if (body === null) return;
  const members = namedChildren(body);
  // A class expression's constructor and parameters have no metadata; its members may.
  const declaration = CLASS_DECLARATIONS.has(node.type);
  const decorated =
    declaration &&
    (namedChildren(node).some(isDecorator) ||
      (node.parent?.type === 'export_statement' && namedChildren(node.parent).some(isDecorator)));
  let pending = false;
  for (const member of members) {
    if (isDecorator(member)) {
      pending = true;
      continue;
    }
    const memberDecorated = pending || namedChildren(member).some(isDecorator);
    pending = false;
    if (member.type === 'method_definition') {
      recordMethodMetadata(source, member, memberDecorated, decorated, members);
      if (declaration) recordParameterMetadata(source, member);
    } else if (member.type === 'public_field_definition' && memberDecorated) {
      const standard = !hasToken(member, 'abstract') && !hasToken(member, 'declare');
      const mode = memberMode(member, standard);
      if (mode !== null) recordMetadataType(source, typeOf(member), mode);
    }
  }
}

function recordMethodMetadata(
  source: Source,
  method: Node,
  decorated: boolean,
  classDecorated: boolean,
  members: readonly Node[],
): void {
  if (method.childForFieldName('body') === null) return;
  const parameters = parametersOf(method);
  const name = method.childForFieldName('name');
  const isConstructor = name !== null && textOf(source, name) === 'constructor';
  if (isConstructor) {
    if (classDecorated)
      for (const parameter of parameters) recordParameter(source, parameter, 'any');
  } else if (decorated) {
    const mode = memberMode(method, true);
    if (mode !== null) {
      if (hasToken(method, 'get') || hasToken(method, 'set'))
        recordMetadataType(
          source,
          accessorType(method) ?? pairedAccessorType(source, method, members),
          mode,
        );
      else {
        for (const parameter of parameters) recordParameter(source, parameter, mode);
        recordMetadataType(source, typeOf(method, 'return_type'), mode);
      }
    }
  }
}

/** Legacy decorators only: a decorated parameter of a method or constructor (not a getter). */
function recordParameterMetadata(source: Source, method: Node): void {
  if (method.childForFieldName('body') === null) return;
  const parameters = parametersOf(method);
  const name = method.childForFieldName('name');
  const isConstructor = name !== null && textOf(source, name) === 'constructor';
  const parameterDecorated = parameters.some(
    (parameter) =>
      !isThisParameter(source, parameter) && namedChildren(parameter).some(isDecorator),
  );
  if (!parameterDecorated || hasToken(method, 'get')) return;
  for (const parameter of parameters) recordParameter(source, parameter, 'legacy');
  if (!isConstructor) recordMetadataType(source, typeOf(method, 'return_type'), 'legacy');
}

function isDecorator(node: Node): boolean {
  return node.type === 'decorator';
}

function isAmbient(node: Node): boolean {
  for (let at: Node | null = node; at !== null; at = at.parent)
    if (at.type === 'ambient_declaration') return true;
  return false;
}

/** Which decorators let a member of its class be decorated; `standard`: standard ones allow it. */
function memberMode(member: Node, standard: boolean): DecoratorMode | null {
  const owner = member.parent?.parent;
  const name = member.childForFieldName('name');
  const legacy =
    owner !== null &&
    owner !== undefined &&
    CLASS_DECLARATIONS.has(owner.type) &&
    name?.type !== 'private_property_identifier';
  if (legacy && standard) return 'any';
  if (legacy) return 'legacy';
  return standard ? 'es' : null;
}

function parametersOf(method: Node): Node[] {
  const list = method.childForFieldName('parameters');
  return list === null ? [] : namedChildren(list).filter((child) => child.type !== 'decorator');
}

function isThisParameter(source: Source, parameter: Node): boolean {
  const pattern = parameter.childForFieldName('pattern');
  return pattern !== null && textOf(source, pattern) === 'this';
}

/** The type written in a node's `type` (or other) field, without its annotation's colon. */
function typeOf(node: Node, field = 'type'): Node | undefined {
  const annotation = node.childForFieldName(field);
  return annotation === null ? undefined : (namedChildren(annotation)[0] ?? undefined);
}

/** A parameter's type; a rest parameter's element type, as the metadata holds it. */
function recordParameter(source: Source, parameter: Node, mode: DecoratorMode): void {
  const type = typeOf(parameter);
  if (parameter.childForFieldName('pattern')?.type !== 'rest_pattern' || type === undefined) {
    recordMetadataType(source, type, mode);
    return;
  }
  if (type.type === 'array_type') recordMetadataType(source, namedChildren(type)[0], mode);
  else if (type.type === 'generic_type') {
    const args = type.childForFieldName('type_arguments');
    const list = args === null ? [] : namedChildren(args);
    if (list.length === 1) recordMetadataType(source, list[0], mode);
  }
}

function accessorType(method: Node): Node | undefined {
  if (hasToken(method, 'get')) return typeOf(method, 'return_type');
  const parameters = parametersOf(method);
  const value = parameters.find(
    (parameter) => parameter.childForFieldName('pattern')?.text !== 'this',
  );
  return value === undefined ? undefined : typeOf(value);
}

/** The type of the other accessor of the same name (a getter's setter, a setter's getter). */
function pairedAccessorType(
  source: Source,
  method: Node,
  members: readonly Node[],
): Node | undefined {
  const kind = hasToken(method, 'get') ? 'set' : 'get';
  const isStatic = hasToken(method, 'static');
  const name = method.childForFieldName('name');
  if (name === null) return undefined;
  for (const member of members) {
    const other = member.childForFieldName('name');
    if (
      member.type === 'method_definition' &&
      hasToken(member, kind) &&
      hasToken(member, 'static') === isStatic &&
      other !== null &&
      textOf(source, other) === textOf(source, name)
    )
      return accessorType(member);
  }
  return undefined;
}

/** The name decorator metadata writes for a type (typescript/decorator-metadata.ts metadataEntity). */
function recordMetadataType(source: Source, type: Node | undefined, mode: DecoratorMode): void {
  const entity = type === undefined ? null : metadataEntity(type);
  if (entity === null) return;
  let root = entity.name;
  while (root.type === 'nested_type_identifier') {
    const left = namedChildren(root)[0];
    if (left === undefined) return;
    root = left;
  }
  // `A.B`'s root is an `identifier`, a member of nested_identifier when deeper (`A.B.C`).
  while (root.type === 'nested_identifier') {
    const left = namedChildren(root)[0];
    if (left === undefined) return;
    root = left;
  }
  const name = identifierName(textOf(source, root));
  const { uses } = source.facts;
  if (uses.watches(name)) uses.decoratorMetadata(name, mode, entity.loose);
}

interface MetadataEntity {
  readonly name: Node;
  /** Found only by skipping `null`/`undefined`, which TypeScript does without strictNullChecks. */
  readonly loose: boolean;
}

function metadataEntity(type: Node): MetadataEntity | null {
  switch (type.type) {
    case 'union_type':
    case 'intersection_type':
      return commonEntity(flatten(type, type.type));
    case 'conditional_type': {
      const branches = [
        type.childForFieldName('consequence'),
        type.childForFieldName('alternative'),
      ];
      return commonEntity(branches.filter((branch): branch is Node => branch !== null));
    }
    case 'parenthesized_type': {
      const inner = namedChildren(type)[0];
      return inner === undefined ? null : metadataEntity(inner);
    }
    case 'type_identifier':
    case 'nested_type_identifier':
      return { name: type, loose: false };
    case 'generic_type': {
      const name = type.childForFieldName('name');
      return name === null ? null : { name, loose: false };
    }
    default:
      return null;
  }
}

/** tree-sitter nests `A | B | C` as `(A | B) | C`; TypeScript lists the three. */
function flatten(type: Node, kind: string): Node[] {
  return namedChildren(type).flatMap((part) => (part.type === kind ? flatten(part, kind) : [part]));
}

function commonEntity(types: readonly Node[]): MetadataEntity | null {
  let common: MetadataEntity | null = null;
  let loose = false;
  for (const written of types) {
    let type = written;
    while (type.type === 'parenthesized_type') {
      const inner = namedChildren(type)[0];
      if (inner === undefined) return null;
      type = inner;
    }
    if (type.type === 'predefined_type' && type.text === 'never') continue;
    if (type.type === 'literal_type' && (type.text === 'undefined' || type.text === 'null')) {
      loose = true;
      continue;
    }
    if (type.type === 'undefined') {
      loose = true;
      continue;
    }
    const entity = metadataEntity(type);
    if (entity === null) return null;
    loose ||= entity.loose;
    if (common === null) common = entity;
    else if (!sameIdentifier(common.name, entity.name)) return null;
  }
  return common === null ? null : { name: common.name, loose };
}

function sameIdentifier(a: Node, b: Node): boolean {
  return a.type === 'type_identifier' && b.type === 'type_identifier' && a.text === b.text;
}
