import {
  type ClassDeclaration,
  type ImportSpecifier,
  type MethodDeclaration,
  Node,
  type PropertyAccessExpression,
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

/** How the project uses a static-only class: only ever as `Class.member`. */
export interface ClassUses {
  /** `Class.member`, `Alias.member` and `this.member` expressions, per file. */
  readonly accesses: ReadonlyMap<SourceFile, readonly PropertyAccessExpression[]>;
  /** The specifier importing the class, per other file. */
  readonly imports: ReadonlyMap<SourceFile, ImportSpecifier>;
  /** Fields assigned to somewhere (in the class's own file): they become `let`. */
  readonly written: ReadonlySet<string>;
}

/**
 * The class's uses, or undefined when one of them needs a class: the class as a value (passed,
 * `new`ed, `instanceof`, re-exported), in a type, `this` other than `this.member`, `super`, a
 * member reached another way, a method reassigned, a field assigned from another file or
 * deleted, or an initializer that reads a later field or calls into the class (as module
 * constants, those would be read before they are set).
 */
export function classUses(
  cls: ClassDeclaration,
  members: readonly StaticMember[],
): ClassUses | undefined {
  const names = new Set(members.map((member) => member.getName()));
  const file = cls.getSourceFile();
  const accesses = new Map<string, PropertyAccessExpression>();
  const imports = new Map<SourceFile, ImportSpecifier>();
  const isMemberAccess = (
    parent: Node | undefined,
    base: Node,
  ): parent is PropertyAccessExpression =>
    Node.isPropertyAccessExpression(parent) &&
    parent.getExpression() === base &&
    !parent.hasQuestionDotToken() &&
    names.has(parent.getName());
  const name = cls.getNameNode();
  if (name === undefined || cls.getDescendantsOfKind(ts.SyntaxKind.SuperKeyword).length > 0)
    return undefined;
  for (const reference of references(name)) {
    const node = reference.getNode();
    const parent = node.getParent();
    if (node === name) continue;
    if (Node.isImportSpecifier(parent)) {
      const other = node.getSourceFile();
      const known = imports.get(other);
      if (other === file || parent.isTypeOnly() || parent.getImportDeclaration().isTypeOnly())
        return undefined;
      if (known !== undefined && known !== parent) return undefined;
      imports.set(other, parent);
    } else if (isMemberAccess(parent, node)) accesses.set(key(parent), parent);
    else return undefined;
  }
  for (const self of cls.getDescendantsOfKind(ts.SyntaxKind.ThisKeyword)) {
    // `this` in a nested function is that function's own: not the class.
    if (!members.some((member) => thisOwner(self) === member)) continue;
    const parent = self.getParent();
    if (!isMemberAccess(parent, self)) return undefined;
    accesses.set(key(parent), parent);
  }
  const written = new Set<string>();
  for (const member of members)
    for (const reference of references(member.getNameNode())) {
      const node = reference.getNode();
      if (node === member.getNameNode()) continue;
      const access = node.getParent();
      if (!Node.isPropertyAccessExpression(access) || !accesses.has(key(access))) return undefined;
      if (Node.isDeleteExpression(access.getParent())) return undefined;
      if (!reference.isWriteAccess()) continue;
      if (Node.isMethodDeclaration(member) || node.getSourceFile() !== file) return undefined;
      written.add(member.getName());
    }
  const byFile = new Map<SourceFile, PropertyAccessExpression[]>();
  for (const access of accesses.values()) {
    const list = byFile.get(access.getSourceFile()) ?? [];
    list.push(access);
    byFile.set(access.getSourceFile(), list);
  }
  // Every importer uses a member (else its import would be left empty), and every other file
  // reaching the class imports it by name (not as a script's global).
  if (![...imports.keys()].every((other) => byFile.has(other))) return undefined;
  if (![...byFile.keys()].every((other) => other === file || imports.has(other))) return undefined;
  if (!initializersReadOnlyWhatIsSet(members, byFile.get(file) ?? [])) return undefined;
  return { accesses: byFile, imports, written };
}

function references(node: Node) {
  return node
    .getProject()
    .getLanguageService()
    .findReferences(node)
    .flatMap((symbol) => symbol.getReferences());
}

function key(node: Node): string {
  return `${node.getSourceFile().getFilePath()}:${node.getStart()}`;
}

/** The declaration whose `this` a `this` keyword is: arrow functions have none of their own. */
function thisOwner(self: Node): Node | undefined {
  for (let node = self.getParent(); node !== undefined; node = node.getParent()) {
    if (Node.isArrowFunction(node)) continue;
    if (
      Node.isFunctionLikeDeclaration(node) ||
      Node.isFunctionExpression(node) ||
      Node.isPropertyDeclaration(node) ||
      Node.isClassStaticBlockDeclaration(node) ||
      Node.isClassLikeDeclarationBase(node)
    )
      return node;
  }
  return undefined;
}

/**
 * Static fields are set in order when the class is defined, with every method already there; as
 * module constants they are set in the same order but a function called early may read one not
 * yet set. So an initializer may read earlier fields and name methods, but call none of them.
 * What a nested function does runs later and is free.
 */
function initializersReadOnlyWhatIsSet(
  members: readonly StaticMember[],
  accesses: readonly PropertyAccessExpression[],
): boolean {
  return members.every((member, index) => {
    if (!Node.isPropertyDeclaration(member)) return true;
    const initializer = member.getInitializer();
    if (initializer === undefined) return true;
    return accesses
      .filter((access) => isInside(access, initializer) && !isDeferred(access, initializer))
      .every((access) => {
        const target = members.findIndex((each) => each.getName() === access.getName());
        const parent = access.getParent();
        const called = Node.isCallExpression(parent) && parent.getExpression() === access;
        const targetMember = members[target];
        return (
          !called &&
          targetMember !== undefined &&
          (Node.isMethodDeclaration(targetMember) || target < index)
        );
      });
  });
}

function isInside(node: Node, container: Node): boolean {
  return node.getStart() >= container.getStart() && node.getEnd() <= container.getEnd();
}

/** Whether `node` runs only when a function around it, inside the initializer, is called. */
function isDeferred(node: Node, initializer: Node): boolean {
  if (node === initializer) return false;
  for (let parent = node.getParent(); parent !== undefined; parent = parent.getParent()) {
    if (Node.isFunctionLikeDeclaration(parent) || Node.isFunctionExpression(parent)) return true;
    if (parent === initializer) return false;
  }
  return false;
}
