import type { Decorator, MethodDefinition, Node, TSTypeAnnotation } from 'oxc-parser';
import type { DecoratorMode } from '../../model/facts.js';
import { type Source, textOf } from './syntax.js';
import { fieldsOf, inDeclaration } from './uses.js';

/** Decorator metadata's uses of imported names (typescript/uses.ts says when they keep an import). */

/**
 * A decorator: with `emitDecoratorMetadata` TypeScript writes the types of what it decorates;
 * the rules are written down in typescript/decorator-metadata.ts recordDecorator.
 */
export function recordDecorator(source: Source, decorator: Decorator): void {
  const { ancestors } = source;
  const node = ancestors.at(-1);
  if (node === undefined) return;
  const decorators = (node as { decorators?: readonly Node[] }).decorators;
  // A `declare` property is no ambient context of its own: legacy decorators still describe it.
  const context = node.type === 'PropertyDefinition' ? ancestors.slice(0, -1) : ancestors;
  if (decorators?.[0] !== decorator || inDeclaration(context)) return;
  const record = (type: TSTypeAnnotation | null | undefined, mode: DecoratorMode | null) => {
    if (mode !== null && type !== null && type !== undefined)
      recordMetadataType(source, type.typeAnnotation, mode);
  };
  const owner = ancestors.at(-3);
  const inDeclaredClass = owner?.type === 'ClassDeclaration';
  switch (node.type) {
    case 'ClassDeclaration': {
      const ctor = node.body.body.find(
        (member) =>
          member.type === 'MethodDefinition' &&
          member.kind === 'constructor' &&
          member.value.body !== null,
      );
      const params = ctor?.type === 'MethodDefinition' ? ctor.value.params : [];
      for (const parameter of params) record(parameterType(parameter), 'any');
      return;
    }
    case 'PropertyDefinition':
    case 'AccessorProperty':
    case 'TSAbstractPropertyDefinition':
    case 'TSAbstractAccessorProperty': {
      const standard = !node.type.startsWith('TSAbstract') && fieldsOf(node).declare !== true;
      record(node.typeAnnotation, memberMode(node.key.type, inDeclaredClass, standard));
      return;
    }
    case 'MethodDefinition': {
      const fn = node.value;
      if (fn.body === null || node.kind === 'constructor') return;
      const mode = memberMode(node.key.type, inDeclaredClass, true);
      if (node.kind === 'method') {
        for (const parameter of fn.params) record(parameterType(parameter), mode);
        record(fn.returnType, mode);
      } else {
        record(accessorType(node) ?? pairedAccessorType(source, node, ancestors.at(-2)), mode);
      }
      return;
    }
  }
  recordParameterDecorator(source, node, record);
}

type RecordType = (type: TSTypeAnnotation | null | undefined, mode: DecoratorMode | null) => void;

/** Legacy decorators only: a decorated parameter of a class declaration's method or constructor. */
function recordParameterDecorator(source: Source, parameter: Node, record: RecordType): void {
  const { ancestors } = source;
  const fn = ancestors.at(-2);
  const method = ancestors.at(-3);
  const owner = ancestors.at(-5);
  if (
    fn?.type !== 'FunctionExpression' ||
    fn.body === null ||
    !fn.params.includes(parameter as never) ||
    method?.type !== 'MethodDefinition' ||
    method.kind === 'get' ||
    owner?.type !== 'ClassDeclaration' ||
    isThisParameter(parameter)
  )
    return;
  for (const each of fn.params) record(parameterType(each), 'legacy');
  if (method.kind !== 'constructor') record(fn.returnType, 'legacy');
}

function memberMode(
  keyType: string,
  inDeclaredClass: boolean,
  standard: boolean,
): DecoratorMode | null {
  const legacy = inDeclaredClass && keyType !== 'PrivateIdentifier';
  if (legacy && standard) return 'any';
  if (legacy) return 'legacy';
  return standard ? 'es' : null;
}

/** A parameter's type; a rest parameter's element type, as the metadata holds it. */
function parameterType(parameter: Node): TSTypeAnnotation | null | undefined {
  const fields = fieldsOf(parameter);
  if (parameter.type === 'TSParameterProperty') return parameterType(parameter.parameter);
  if (parameter.type === 'AssignmentPattern') {
    return (fields.typeAnnotation as TSTypeAnnotation | null) ?? parameterType(parameter.left);
  }
  const annotation = fields.typeAnnotation as TSTypeAnnotation | null | undefined;
  if (parameter.type !== 'RestElement' || annotation === null || annotation === undefined)
    return annotation;
  const type = annotation.typeAnnotation;
  if (type.type === 'TSArrayType') return { ...annotation, typeAnnotation: type.elementType };
  if (type.type === 'TSTypeReference' && type.typeArguments?.params.length === 1) {
    const [argument] = type.typeArguments.params;
    return argument === undefined ? undefined : { ...annotation, typeAnnotation: argument };
  }
  return undefined;
}

function accessorType(node: MethodDefinition) {
  const fn = node.value;
  if (node.kind === 'get') return fn.returnType;
  const value = fn.params.find((parameter) => !isThisParameter(parameter));
  return value === undefined ? undefined : parameterType(value);
}

function pairedAccessorType(source: Source, node: MethodDefinition, body: Node | undefined) {
  if (body?.type !== 'ClassBody') return undefined;
  const name = textOf(source, node.key);
  for (const member of body.body) {
    if (
      member.type === 'MethodDefinition' &&
      (member.kind === 'get' || member.kind === 'set') &&
      member.kind !== node.kind &&
      member.static === node.static &&
      member.computed === node.computed &&
      textOf(source, member.key) === name
    )
      return accessorType(member);
  }
  return undefined;
}

function isThisParameter(parameter: Node): boolean {
  return parameter.type === 'Identifier' && parameter.name === 'this';
}

/** The name decorator metadata writes for a type (typescript/decorator-metadata.ts metadataEntity). */
function recordMetadataType(source: Source, type: Node, mode: DecoratorMode): void {
  const entity = metadataEntity(type);
  if (entity === null) return;
  let root = entity.name;
  while (root.type === 'TSQualifiedName') root = root.left;
  const { uses } = source.facts;
  if (root.type === 'Identifier' && uses.watches(root.name))
    uses.decoratorMetadata(root.name, mode, entity.loose);
}

interface MetadataEntity {
  readonly name: Node;
  readonly loose: boolean;
}

function metadataEntity(type: Node): MetadataEntity | null {
  switch (type.type) {
    case 'TSUnionType':
    case 'TSIntersectionType':
      return commonEntity(type.types);
    case 'TSConditionalType':
      return commonEntity([type.trueType, type.falseType]);
    case 'TSNamedTupleMember':
      return metadataEntity(type.elementType);
    case 'TSTypeReference':
      return { name: type.typeName, loose: false };
    default:
      return null;
  }
}

function commonEntity(types: readonly Node[]): MetadataEntity | null {
  let common: MetadataEntity | null = null;
  let loose = false;
  for (const written of types) {
    const type = written.type === 'TSNamedTupleMember' ? written.elementType : written;
    if (type.type === 'TSNeverKeyword') continue;
    if (type.type === 'TSUndefinedKeyword' || isNullType(type)) {
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

function isNullType(type: Node): boolean {
  return (
    type.type === 'TSNullKeyword' ||
    (type.type === 'TSLiteralType' &&
      type.literal.type === 'Literal' &&
      type.literal.value === null)
  );
}

function sameIdentifier(a: Node, b: Node): boolean {
  return a.type === 'Identifier' && b.type === 'Identifier' && a.name === b.name;
}
