import type { Node } from 'web-tree-sitter';
import { hasModifier, type JavaSource, rangeOf, withoutTypeArguments } from './java-draft.js';

/**
 * Java type declarations.
 *
 * Classes: `class`, `record` and `enum` declarations, nested and local ones included (all are
 * classes with members and methods); anonymous classes are class expressions and are not.
 * `extends` is the superclass, `implements` the implemented interfaces, both without generic
 * arguments. `methods` counts methods (abstract ones too) and constructors, compact record
 * constructors included. staticOnly: at least one member (field, method, constructor,
 * initializer block), every one static; a constructor, even a private one, is not static, as
 * the contract says. An enum or a record is never static-only: its constants and components are
 * instances of it.
 *
 * Abstractions: interfaces (`interface`) and abstract classes (`abstract-class`); annotation
 * types are neither. Exports: the public top-level types. Mutable state: static fields that
 * are not final, in classes, enums and records (interface fields are implicitly final).
 */

const CLASS_LIKE = new Set(['class_declaration', 'record_declaration', 'enum_declaration']);
const TYPE_DECLARATIONS = new Set([
  ...CLASS_LIKE,
  'interface_declaration',
  'annotation_type_declaration',
]);
const METHOD_LIKE = new Set([
  'method_declaration',
  'constructor_declaration',
  'compact_constructor_declaration',
]);
const FIELD_HOLDERS = new Set(['class_body', 'enum_body_declarations']);

export function isTypeDeclaration(type: string): boolean {
  return TYPE_DECLARATIONS.has(type);
}

/** The members of a class, record or enum body, enum constants aside. */
function membersOf(declaration: Node): Node[] {
  const body = declaration.childForFieldName('body');
  if (body?.type !== 'enum_body') return body?.namedChildren ?? [];
  return body.namedChildren
    .filter((child) => child.type === 'enum_body_declarations')
    .flatMap((declarations) => declarations.namedChildren);
}

function isStaticMember(member: Node): boolean {
  if (member.type === 'static_initializer') return true;
  if (member.type === 'field_declaration' || member.type === 'method_declaration') {
    return hasModifier(member, 'static');
  }
  return false;
}

const MEMBER_TYPES = new Set([...METHOD_LIKE, 'field_declaration', 'static_initializer', 'block']);

function readClass(declaration: Node, name: string, source: JavaSource): void {
  const members = membersOf(declaration).filter((member) => MEMBER_TYPES.has(member.type));
  const superclass = declaration.childForFieldName('superclass')?.firstNamedChild;
  const interfaces = declaration.childForFieldName('interfaces')?.firstNamedChild?.namedChildren;
  const abstract = hasModifier(declaration, 'abstract');
  const isEnumOrRecord = declaration.type !== 'class_declaration';
  source.facts.addClass({
    name,
    range: rangeOf(declaration),
    extends: superclass ? withoutTypeArguments(superclass) : null,
    implements: (interfaces ?? [])
      .filter((type) => type.type !== 'comment')
      .map(withoutTypeArguments),
    abstract,
    staticOnly: !isEnumOrRecord && members.length > 0 && members.every(isStaticMember),
    methods: members.filter((member) => METHOD_LIKE.has(member.type)).length,
  });
  if (abstract) source.facts.addAbstraction(name, 'abstract-class', rangeOf(declaration));
}

/** Reads a type declaration; returns its name, which names the methods inside it. */
export function readTypeDeclaration(declaration: Node, source: JavaSource): string {
  const nameNode = declaration.childForFieldName('name');
  const name = nameNode?.text ?? '';
  if (CLASS_LIKE.has(declaration.type)) readClass(declaration, name, source);
  if (declaration.type === 'interface_declaration') {
    source.facts.addAbstraction(name, 'interface', rangeOf(declaration));
  }
  const topLevel = declaration.parent?.type === 'program';
  if (topLevel && nameNode !== null && hasModifier(declaration, 'public')) {
    source.facts.addExport(name, false, nameNode.startIndex);
  }
  return name;
}

/** A field declaration: each name it declares is mutable state when it is static and not final. */
export function readField(field: Node, source: JavaSource): void {
  if (!FIELD_HOLDERS.has(field.parent?.type ?? '')) return;
  if (!hasModifier(field, 'static') || hasModifier(field, 'final')) return;
  for (const declarator of field.childrenForFieldName('declarator')) {
    const name = declarator.childForFieldName('name');
    if (name !== null) source.facts.addMutableState(name.text, name.startIndex);
  }
}
