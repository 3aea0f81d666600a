import type * as ts from 'typescript';
import type { ClassDraft } from '../tree-sitter/facts-collector.js';
import { typescript } from '../typescript-runtime.js';
import { isAbstract } from './names.js';
import { hasModifier, rangeOf, type Source, textOf } from './syntax.js';

/**
 * A class declaration's fact. Rules shared with the oxc extractor:
 * - `extends`: the expression as written, without its generic arguments (`mixin(A)` stays);
 * - `implements`: each type as written, generic arguments removed;
 * - members: methods, constructors, accessors, fields, index signatures, static blocks and
 *   method overload signatures (not `;`); a member is static if marked `static` (a static block
 *   is static, a constructor is not);
 * - `methods` counts methods, constructors and accessors with a body, plus abstract ones;
 *   overload signatures without a body are not counted again (so a `declare class` has 0).
 */
export function describeClass(
  source: Source,
  node: ts.ClassLikeDeclaration,
  name: string,
): ClassDraft {
  const members = node.members.map(describeMember).filter((member) => member !== null);
  return {
    name,
    range: rangeOf(source, node),
    extends: heritage(source, node, typescript.SyntaxKind.ExtendsKeyword)[0] ?? null,
    implements: heritage(source, node, typescript.SyntaxKind.ImplementsKeyword),
    abstract: isAbstract(node),
    staticOnly: members.length > 0 && members.every((member) => member.static),
    methods: members.filter((member) => member.method).length,
  };
}

/** The types of a heritage clause as written, generic arguments removed. */
function heritage(
  source: Source,
  node: ts.ClassLikeDeclaration,
  token: ts.SyntaxKind.ExtendsKeyword | ts.SyntaxKind.ImplementsKeyword,
): string[] {
  const clause = node.heritageClauses?.find((candidate) => candidate.token === token);
  return clause === undefined ? [] : clause.types.map((type) => textOf(source, type.expression));
}

interface Member {
  readonly static: boolean;
  readonly method: boolean;
}

function describeMember(node: ts.ClassElement): Member | null {
  const isStatic = hasModifier(node, typescript.SyntaxKind.StaticKeyword);
  if (typescript.isConstructorDeclaration(node))
    return { static: false, method: node.body !== undefined };
  if (typescript.isMethodDeclaration(node) || typescript.isAccessor(node)) {
    return { static: isStatic, method: node.body !== undefined || isAbstract(node) };
  }
  if (typescript.isPropertyDeclaration(node) || typescript.isIndexSignatureDeclaration(node)) {
    return { static: isStatic, method: false };
  }
  if (typescript.isClassStaticBlockDeclaration(node)) return { static: true, method: false };
  return null;
}
