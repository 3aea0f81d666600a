import type { Class, ClassElement } from 'oxc-parser';
import type { ClassDraft } from '../tree-sitter/facts-collector.js';
import type { TextRange } from '../tree-sitter/line-index.js';
import { isConstructor } from './names.js';
import { type Source, textOf } from './syntax.js';

/** A class declaration's fact, by the rules written down in typescript/classes.ts. */
export function describeClass(
  source: Source,
  node: Class,
  name: string,
  range: TextRange,
): ClassDraft {
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
