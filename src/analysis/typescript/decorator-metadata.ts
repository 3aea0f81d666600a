import type * as ts from 'typescript';
import type { DecoratorMode } from '../../model/facts.js';
import { typescript } from '../typescript-runtime.js';
import { hasModifier, type Source, textOf } from './syntax.js';

/** Decorator metadata's uses of imported names (typescript/uses.ts says when they keep an import). */

const K = typescript.SyntaxKind;

/** In a `declare` statement or a `declare module`/`namespace`/`global` block: nothing is emitted. */
function isAmbient(node: ts.Node): boolean {
  for (let at: ts.Node = node; !typescript.isSourceFile(at); at = at.parent)
    if (hasModifier(at, K.DeclareKeyword)) return true;
  return false;
}

/**
 * A decorator: with `emitDecoratorMetadata` TypeScript writes the types of what it decorates
 * (by TypeScript's checker, markDecoratorAliasReferenced): the constructor's parameter types
 * of a decorated class; the type of a decorated property; the parameter and return types of a
 * decorated method; an accessor's type (or its pair's); and, with legacy decorators, for a
 * decorated parameter, the parameter and return types of its method or constructor. Which
 * decorators allow it (nodeCanBeDecorated): legacy ones only on class declarations' members
 * (and never on `#private` ones), standard ones on class expressions' members too, but never
 * on parameters, nor on `abstract` or `declare` properties.
 */
export function recordDecorator(source: Source, decorator: ts.Decorator): void {
  const node = decorator.parent;
  const decorators = typescript.canHaveDecorators(node)
    ? typescript.getDecorators(node)
    : undefined;
  // Once per declaration, at its first decorator.
  // A `declare` property is no ambient context of its own: legacy decorators still describe it.
  const context = typescript.isPropertyDeclaration(node) ? node.parent : node;
  if (decorators?.[0] !== decorator || isAmbient(context)) return;
  const record = (type: ts.TypeNode | undefined, mode: DecoratorMode | null) => {
    if (mode !== null) recordMetadataType(source, type, mode);
  };
  if (typescript.isClassDeclaration(node)) {
    const ctor = node.members.find(
      (member): member is ts.ConstructorDeclaration =>
        typescript.isConstructorDeclaration(member) && member.body !== undefined,
    );
    for (const parameter of ctor?.parameters ?? []) record(parameterType(parameter), 'any');
  } else if (typescript.isPropertyDeclaration(node)) {
    const standard = !hasModifier(node, K.AbstractKeyword) && !hasModifier(node, K.DeclareKeyword);
    record(node.type, memberMode(node, standard));
  } else if (typescript.isMethodDeclaration(node) && node.body !== undefined) {
    const mode = memberMode(node, true);
    for (const parameter of node.parameters) record(parameterType(parameter), mode);
    record(node.type, mode);
  } else if (typescript.isAccessor(node) && node.body !== undefined) {
    record(accessorType(node) ?? pairedAccessorType(source, node), memberMode(node, true));
  } else if (typescript.isParameter(node)) {
    const owner = node.parent;
    const legacy =
      (typescript.isConstructorDeclaration(owner) ||
        typescript.isMethodDeclaration(owner) ||
        typescript.isSetAccessor(owner)) &&
      owner.body !== undefined &&
      typescript.isClassDeclaration(owner.parent) &&
      !isThisParameter(node);
    if (!legacy) return;
    for (const parameter of owner.parameters) record(parameterType(parameter), 'legacy');
    if (!typescript.isConstructorDeclaration(owner)) record(owner.type, 'legacy');
  }
}

/** Which decorators let a member of its class be decorated; `standard`: standard ones allow it. */
function memberMode(node: ts.ClassElement, standard: boolean): DecoratorMode | null {
  const legacy =
    typescript.isClassDeclaration(node.parent) &&
    !(node.name !== undefined && typescript.isPrivateIdentifier(node.name));
  if (legacy && standard) return 'any';
  if (legacy) return 'legacy';
  return standard ? 'es' : null;
}

function parameterType(parameter: ts.ParameterDeclaration): ts.TypeNode | undefined {
  const type = parameter.type;
  if (parameter.dotDotDotToken === undefined || type === undefined) return type;
  // A rest parameter's metadata is its element type.
  if (typescript.isArrayTypeNode(type)) return type.elementType;
  if (typescript.isTypeReferenceNode(type) && type.typeArguments?.length === 1)
    return type.typeArguments[0];
  return undefined;
}

function accessorType(node: ts.AccessorDeclaration): ts.TypeNode | undefined {
  if (typescript.isGetAccessor(node)) return node.type;
  const value = node.parameters.find((parameter) => !isThisParameter(parameter));
  return value?.type;
}

/** The type of the other accessor of the same name (a getter's setter, a setter's getter). */
function pairedAccessorType(source: Source, node: ts.AccessorDeclaration): ts.TypeNode | undefined {
  const isStatic = hasModifier(node, K.StaticKeyword);
  const name = textOf(source, node.name);
  const members: readonly ts.Node[] = typescript.isClassLike(node.parent)
    ? node.parent.members
    : [];
  for (const member of members) {
    if (
      typescript.isAccessor(member) &&
      member.kind !== node.kind &&
      hasModifier(member, K.StaticKeyword) === isStatic &&
      textOf(source, member.name) === name
    )
      return accessorType(member);
  }
  return undefined;
}

function isThisParameter(parameter: ts.ParameterDeclaration): boolean {
  return typescript.isIdentifier(parameter.name) && parameter.name.text === 'this';
}

/** The name decorator metadata writes for a type, by TypeScript's getEntityNameForDecoratorMetadata. */
function recordMetadataType(
  source: Source,
  type: ts.TypeNode | undefined,
  mode: DecoratorMode,
): void {
  const entity = type === undefined ? null : metadataEntity(type);
  if (entity === null) return;
  let root: ts.EntityName = entity.name;
  while (typescript.isQualifiedName(root)) root = root.left;
  const { uses } = source.facts;
  if (uses.watches(root.text)) uses.decoratorMetadata(root.text, mode, entity.loose);
}

interface MetadataEntity {
  readonly name: ts.EntityName;
  /** Found only by skipping `null`/`undefined`, which TypeScript does without strictNullChecks. */
  readonly loose: boolean;
}

function metadataEntity(type: ts.TypeNode): MetadataEntity | null {
  switch (type.kind) {
    case K.UnionType:
    case K.IntersectionType:
      return commonEntity((type as ts.UnionOrIntersectionTypeNode).types);
    case K.ConditionalType: {
      const conditional = type as ts.ConditionalTypeNode;
      return commonEntity([conditional.trueType, conditional.falseType]);
    }
    case K.ParenthesizedType:
    case K.NamedTupleMember:
      return metadataEntity((type as ts.ParenthesizedTypeNode).type);
    case K.TypeReference:
      return { name: (type as ts.TypeReferenceNode).typeName, loose: false };
    default:
      return null;
  }
}

function commonEntity(types: readonly ts.TypeNode[]): MetadataEntity | null {
  let common: MetadataEntity | null = null;
  let loose = false;
  for (const written of types) {
    let type = written;
    while (typescript.isParenthesizedTypeNode(type) || typescript.isNamedTupleMember(type))
      type = type.type;
    if (type.kind === K.NeverKeyword) continue;
    if (type.kind === K.UndefinedKeyword || isNullType(type)) {
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

function isNullType(type: ts.TypeNode): boolean {
  return typescript.isLiteralTypeNode(type) && type.literal.kind === K.NullKeyword;
}

function sameIdentifier(a: ts.EntityName, b: ts.EntityName): boolean {
  return typescript.isIdentifier(a) && typescript.isIdentifier(b) && a.text === b.text;
}
