import type { Node } from 'web-tree-sitter';
import type { JavaUnitFact } from '../../model/facts.js';
import type { LineIndex } from './line-index.js';

/**
 * What a Java file's import graph is resolved from (FileFacts.java): its package, its top-level
 * types and the type names its code uses. Only these nodes name a type by a simple or qualified
 * name:
 * - a type as written (`Foo`, `Map.Entry`, `a.b.C`), in any position: declarations, generic
 *   arguments, `new`, casts, `instanceof`, `throws`, `catch`, `Foo.class`; never a type
 *   parameter's own declaration, nor the inner names of a qualified type;
 * - the qualifier of a method call, a field access or a method reference (`Foo.make()`,
 *   `Foo.X`, `Foo::make`, `a.b.C.make()`), as the whole chain of names;
 * - an annotation's name (`@Foo`, `@a.b.Foo`).
 * A name whose first part the file declares itself (a nested type, a type variable) is left out.
 */
export class JavaReferences {
  private packageName = '';
  private readonly topLevel: string[] = [];
  private readonly declared = new Set<string>();
  private readonly firstUse = new Map<string, number>();

  read(node: Node, type: string): void {
    const written = writtenName(node, type);
    if (written !== null) {
      if (!this.firstUse.has(written)) this.firstUse.set(written, node.startIndex);
    } else if (type === 'type_parameter') {
      // A type variable shadows any type of its name, as a nested type does.
      const variable = node.namedChildren.find((child) => child.type === 'type_identifier');
      if (variable !== undefined) this.declared.add(variable.text);
    } else if (type === 'package_declaration') {
      this.packageName = node.firstNamedChild?.text.replace(/\s+/g, '') ?? '';
    }
  }

  /** A type declaration's name; `topLevel` when the file itself holds it. */
  declare(name: string, topLevel: boolean): void {
    this.declared.add(name);
    if (topLevel) this.topLevel.push(name);
  }

  finish(lines: LineIndex): JavaUnitFact {
    const references = [...this.firstUse]
      .filter(([name]) => !this.declared.has(name.split('.', 1)[0] ?? name))
      .map(([name, at]) => ({ name, line: lines.lineOf(at) }));
    return { package: this.packageName, types: [...this.topLevel], references };
  }
}

const QUALIFIED_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;
const QUALIFIED_USES = new Set(['method_invocation', 'field_access']);

/** The name a node writes a type with, when it is one of the nodes above; else null. */
function writtenName(node: Node, type: string): string | null {
  switch (type) {
    case 'type_identifier':
    case 'scoped_type_identifier': {
      const parent = node.parent?.type;
      if (parent === 'scoped_type_identifier' || parent === 'type_parameter') return null;
      return qualified(node.text);
    }
    case 'method_invocation':
      return qualifierOf(node.childForFieldName('object'));
    case 'field_access':
      return isQualifierOfParent(node) ? null : qualifierOf(node.childForFieldName('object'));
    case 'method_reference':
      return qualifierOf(node.firstNamedChild);
    case 'annotation':
    case 'marker_annotation':
      return qualified(node.childForFieldName('name')?.text ?? '');
    default:
      return null;
  }
}

/** `a.b` in `a.b.c()` or `a.b.c`: the outer call or access records the whole chain once. */
function isQualifierOfParent(node: Node): boolean {
  const parent = node.parent;
  return (
    parent !== null &&
    QUALIFIED_USES.has(parent.type) &&
    parent.childForFieldName('object')?.id === node.id
  );
}

function qualifierOf(node: Node | null): string | null {
  if (node === null || (node.type !== 'identifier' && node.type !== 'field_access')) return null;
  return qualified(node.text);
}

function qualified(text: string): string | null {
  const name = text.replace(/\s+/g, '');
  return QUALIFIED_NAME.test(name) ? name : null;
}
