import {
  type ClassDeclaration,
  type MethodDeclaration,
  Node,
  type PropertyDeclaration,
  type SourceFile,
  ts,
} from 'ts-morph';

export type StaticMember = PropertyDeclaration | MethodDeclaration;

/** Names a module-level declaration may not take, or should not: they mean something already. */
const TAKEN_NAMES = new Set([
  'arguments',
  'eval',
  'undefined',
  'NaN',
  'Infinity',
  'globalThis',
  'require',
  'module',
  'exports',
]);

/**
 * The members of a class that is nothing but a bag of static fields and methods, each one of
 * which can become a module-level `const`/`let` or function as it is; undefined for any other
 * class. Refused: a constructor, instance members, `extends`/`implements`, decorators, abstract
 * or ambient classes, type parameters, a default export, static blocks, accessors, `#private`,
 * computed or reserved names, overloads, optional or uninitialized fields.
 */
export function staticMembers(cls: ClassDeclaration): StaticMember[] | undefined {
  if (
    cls.getName() === undefined ||
    cls.isDefaultExport() ||
    cls.hasDeclareKeyword() ||
    cls.isAbstract() ||
    cls.getExtends() !== undefined ||
    cls.getImplements().length > 0 ||
    cls.getDecorators().length > 0 ||
    cls.getTypeParameters().length > 0
  )
    return undefined;
  const members: StaticMember[] = [];
  for (const element of cls.getNodeProperty('members') ?? []) {
    if (element.getKind() === ts.SyntaxKind.SemicolonClassElement) continue;
    if (!Node.isPropertyDeclaration(element) && !Node.isMethodDeclaration(element))
      return undefined;
    if (!isConvertible(element)) return undefined;
    members.push(element);
  }
  return members.length > 0 ? members : undefined;
}

function isConvertible(member: StaticMember): boolean {
  const name = member.getNameNode();
  if (
    !member.isStatic() ||
    member.getDecorators().length > 0 ||
    member.hasQuestionToken() ||
    !Node.isIdentifier(name) ||
    isReserved(name.compilerNode) ||
    member.hasModifier(ts.SyntaxKind.OverrideKeyword) ||
    member.hasModifier(ts.SyntaxKind.AbstractKeyword)
  )
    return false;
  if (Node.isMethodDeclaration(member))
    return member.hasBody() && member.getOverloads().length === 0;
  return (
    member.hasInitializer() &&
    !member.hasExclamationToken() &&
    !member.hasModifier(ts.SyntaxKind.DeclareKeyword) &&
    !member.hasModifier(ts.SyntaxKind.AccessorKeyword)
  );
}

/** Reserved words, strict mode's reserved words and names with a global meaning. */
function isReserved(name: ts.Identifier): boolean {
  const keyword = ts.identifierToKeywordKind(name);
  const inRange = (first: ts.SyntaxKind, last: ts.SyntaxKind) =>
    keyword !== undefined && keyword >= first && keyword <= last;
  return (
    inRange(ts.SyntaxKind.FirstReservedWord, ts.SyntaxKind.LastReservedWord) ||
    inRange(ts.SyntaxKind.FirstFutureReservedWord, ts.SyntaxKind.LastFutureReservedWord) ||
    keyword === ts.SyntaxKind.AwaitKeyword ||
    TAKEN_NAMES.has(name.text)
  );
}

/**
 * Whether `name` can become a module-level name of `file` without capturing or shadowing
 * anything: no identifier in the file spells it, except as a property name (`x.name`,
 * `{ name: … }`, a member's name), where a variable of that name changes nothing.
 */
export function isNameFree(file: SourceFile, name: string): boolean {
  return file
    .getDescendantsOfKind(ts.SyntaxKind.Identifier)
    .every((identifier) => identifier.getText() !== name || isPropertyName(identifier));
}

function isPropertyName(identifier: Node): boolean {
  const parent = identifier.getParent();
  if (Node.isPropertyAccessExpression(parent)) return parent.getNameNode() === identifier;
  if (Node.isQualifiedName(parent)) return parent.getRight() === identifier;
  if (Node.isBindingElement(parent)) return parent.getPropertyNameNode() === identifier;
  return (
    (Node.isPropertyAssignment(parent) ||
      Node.isPropertyDeclaration(parent) ||
      Node.isPropertySignature(parent) ||
      Node.isMethodDeclaration(parent) ||
      Node.isMethodSignature(parent) ||
      Node.isGetAccessorDeclaration(parent) ||
      Node.isSetAccessorDeclaration(parent) ||
      Node.isEnumMember(parent)) &&
    parent.getNameNode() === identifier
  );
}
