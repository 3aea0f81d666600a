import {
  type ClassDeclaration,
  type ClassExpression,
  type ExpressionWithTypeArguments,
  type Identifier,
  type ImportSpecifier,
  type InterfaceDeclaration,
  Node,
  type ObjectLiteralExpression,
  type Project,
  ts,
} from 'ts-morph';
import { isInJsDoc } from './import-edits.js';
import { isWithin } from './unused-code-references.js';

/** An interface, or an abstract class that is one in all but name. */
export type Abstraction = InterfaceDeclaration | ClassDeclaration;

/** Every reference to an abstraction, sorted by what it does. */
export interface AbstractionUses {
  /** `implements X` / `extends X` entries of class declarations. */
  readonly heritage: readonly ExpressionWithTypeArguments[];
  /** Names in type positions (`x: X`, `X[]`, `Promise<X>`), outside the abstraction itself. */
  readonly typeReferences: readonly Identifier[];
  /** Unaliased `import { X }` specifiers. */
  readonly imports: readonly ImportSpecifier[];
}

/**
 * Sorts the references to `abstraction`; undefined when one of them is anything else (a value
 * use, a re-export, an aliased import, an `as X` that makes up an implementation, an interface
 * extending it, a class expression implementing it, a JSDoc mention): replacing it by a class
 * would then be more than a change of name.
 */
export function abstractionUses(abstraction: Abstraction): AbstractionUses | undefined {
  const nameNode = abstraction.getNameNode();
  if (nameNode === undefined) return undefined;
  const heritage: ExpressionWithTypeArguments[] = [];
  const typeReferences: Identifier[] = [];
  const imports: ImportSpecifier[] = [];
  for (const reference of nameNode.findReferencesAsNodes()) {
    if (reference === nameNode) continue;
    if (!Node.isIdentifier(reference) || isInJsDoc(reference)) return undefined;
    const parent = reference.getParent();
    if (Node.isImportSpecifier(parent)) {
      if (parent.getAliasNode() !== undefined) return undefined;
      if (
        parent.getImportDeclaration().getModuleSpecifierSourceFile() !== abstraction.getSourceFile()
      )
        return undefined;
      imports.push(parent);
    } else if (Node.isExpressionWithTypeArguments(parent) && isClassHeritage(parent)) {
      heritage.push(parent);
    } else if (Node.isTypeReference(parent) && parent.getTypeName() === reference) {
      if (madeUp(parent)) return undefined;
      if (!isWithin(reference, abstraction)) typeReferences.push(reference);
    } else {
      return undefined;
    }
  }
  return { heritage, typeReferences, imports };
}

/** `class C implements X` or `class C extends X`, in a named class declaration. */
function isClassHeritage(entry: ExpressionWithTypeArguments): boolean {
  const clause = entry.getParent();
  if (!Node.isHeritageClause(clause)) return false;
  const owner = clause.getParent();
  return Node.isClassDeclaration(owner) && owner.getName() !== undefined;
}

/** `value as X`, `<X>value`, `value satisfies X`: an object passed off as an implementation. */
function madeUp(typeReference: Node): boolean {
  const parent = typeReference.getParent();
  return (
    Node.isAsExpression(parent) ||
    Node.isTypeAssertion(parent) ||
    Node.isSatisfiesExpression(parent)
  );
}

/**
 * An abstract class that only declares: no constructor, field, static member, body or base, so
 * dropping it from its subclass's `extends` changes no behaviour.
 */
export function isPureAbstractClass(declaration: ClassDeclaration): boolean {
  if (!declaration.isAbstract() || declaration.getDecorators().length > 0) return false;
  if (declaration.getExtends() !== undefined || declaration.getImplements().length > 0)
    return false;
  // The compiler's members, as ts-morph's lists leave out some kinds (index signatures, blocks).
  return declaration.compilerNode.members.every((member) => {
    if (ts.isSemicolonClassElement(member)) return true;
    const declares =
      ts.isMethodDeclaration(member) ||
      ts.isPropertyDeclaration(member) ||
      ts.isGetAccessorDeclaration(member) ||
      ts.isSetAccessorDeclaration(member);
    const flags = ts.getCombinedModifierFlags(member);
    return (
      declares &&
      (flags & ts.ModifierFlags.Abstract) !== 0 &&
      (flags & ts.ModifierFlags.Static) === 0
    );
  });
}

/** Object literals and classes of the project: the candidates for an implementation by shape. */
export interface ShapeCandidates {
  readonly objectLiterals: readonly ObjectLiteralExpression[];
  readonly classes: readonly (ClassDeclaration | ClassExpression)[];
}

export function shapeCandidates(project: Project): ShapeCandidates {
  const objectLiterals: ObjectLiteralExpression[] = [];
  const classes: (ClassDeclaration | ClassExpression)[] = [];
  for (const file of project.getSourceFiles()) {
    if (file.isDeclarationFile() || file.isInNodeModules()) continue;
    objectLiterals.push(...file.getDescendantsOfKind(ts.SyntaxKind.ObjectLiteralExpression));
    classes.push(...file.getDescendantsOfKind(ts.SyntaxKind.ClassDeclaration));
    classes.push(...file.getDescendantsOfKind(ts.SyntaxKind.ClassExpression));
  }
  return { objectLiterals, classes };
}

/**
 * Whether something other than `implementer` (or a subclass) may implement `abstraction` by
 * shape alone — an object literal typed as it or fitting it, a class that fits it: after the
 * change it would still type-check as the class, but the abstraction had two implementations.
 */
export function hasImplementationByShape(
  abstraction: Abstraction,
  implementer: ClassDeclaration,
  candidates: ShapeCandidates,
): boolean {
  const declared = abstraction.getType();
  const isDeclared = (type: ts.Type): boolean => type === declared.compilerType;
  for (const literal of candidates.objectLiterals) {
    const contextual = literal.getContextualType();
    if (contextual !== undefined && typeMentions(contextual.compilerType, isDeclared)) return true;
    if (literal.getType().isAssignableTo(declared)) return true;
  }
  for (const candidate of candidates.classes) {
    if (candidate === abstraction || derivesFrom(candidate, implementer)) continue;
    const instance = candidate.getSymbol()?.getDeclaredType();
    if (instance === undefined || instance.isAssignableTo(declared)) return true;
  }
  return false;
}

function typeMentions(type: ts.Type, isDeclared: (type: ts.Type) => boolean, depth = 0): boolean {
  if (isDeclared(type)) return true;
  if (depth > 3 || !type.isUnionOrIntersection()) return false;
  return type.types.some((part) => typeMentions(part, isDeclared, depth + 1));
}

function derivesFrom(
  candidate: ClassDeclaration | ClassExpression,
  implementer: ClassDeclaration,
): boolean {
  const seen = new Set<Node>();
  let current: ClassDeclaration | ClassExpression | undefined = candidate;
  while (current !== undefined && !seen.has(current)) {
    if (current === implementer) return true;
    seen.add(current);
    current = current.getBaseClass();
  }
  return false;
}
