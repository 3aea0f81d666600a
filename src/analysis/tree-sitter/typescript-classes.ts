import type { Node } from 'web-tree-sitter';
import type { ClassDraft } from './facts-collector.js';
import { declarationStart } from './typescript-names.js';
import { hasToken, namedChildren, type Source, textOf } from './typescript-syntax.js';

/**
 * A class declaration's fact, read from tree-sitter's TS/JS tree. Rules shared with the
 * TypeScript extractor:
 * - `extends`: the expression as written, without its generic arguments (`mixin(A)` stays);
 * - `implements`: each type as written, generic arguments removed;
 * - members: methods, constructors, accessors, fields, index signatures, static blocks and
 *   method overload signatures (not `;`); a member is static if marked `static` (a static block
 *   is static, a constructor is not);
 * - `methods` counts methods, constructors and accessors with a body, plus abstract ones;
 *   overload signatures without a body are not counted again (so a `declare class` has 0).
 */
export function describeClass(source: Source, node: Node, name: string): ClassDraft {
  const heritage = namedChildren(node).find((child) => child.type === 'class_heritage');
  const body = node.childForFieldName('body');
  const members = body === null ? [] : namedChildren(body).map(describeMember).filter(isMember);
  return {
    name,
    range: { start: declarationStart(node), end: node.endIndex },
    extends: heritage === undefined ? null : extendedClass(source, heritage),
    implements: heritage === undefined ? [] : implementedInterfaces(source, heritage),
    abstract: node.type === 'abstract_class_declaration',
    staticOnly: members.length > 0 && members.every((member) => member.static),
    methods: members.filter((member) => member.method).length,
  };
}

function extendedClass(source: Source, heritage: Node): string | null {
  const clause = namedChildren(heritage).find((child) => child.type !== 'implements_clause');
  if (clause === undefined) return null;
  // TypeScript's grammar wraps the expression in an extends_clause; JavaScript's does not.
  const value = clause.type === 'extends_clause' ? clause.childForFieldName('value') : clause;
  return value === null ? null : textOf(source, value);
}

function implementedInterfaces(source: Source, heritage: Node): string[] {
  const clause = namedChildren(heritage).find((child) => child.type === 'implements_clause');
  if (clause === undefined) return [];
  return namedChildren(clause).map((type) => {
    const withoutArguments = type.type === 'generic_type' ? type.childForFieldName('name') : type;
    return textOf(source, withoutArguments ?? type);
  });
}

interface Member {
  readonly static: boolean;
  readonly method: boolean;
}

function describeMember(node: Node): Member | null {
  switch (node.type) {
    case 'method_definition':
      return { static: hasToken(node, 'static'), method: true };
    case 'abstract_method_signature':
      return { static: false, method: true };
    case 'method_signature':
    case 'public_field_definition':
    case 'field_definition':
    case 'index_signature':
      return { static: hasToken(node, 'static'), method: false };
    case 'class_static_block':
      return { static: true, method: false };
    default:
      return null;
  }
}

function isMember(member: Member | null): member is Member {
  return member !== null;
}
