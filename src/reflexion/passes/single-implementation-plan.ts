import {
  type ClassDeclaration,
  type ExpressionWithTypeArguments,
  type Identifier,
  Node,
  type SourceFile,
  ts,
} from 'ts-morph';
import { inPublicSignature, isPublic, type PublicApi } from '../public-api/public-api.js';
import {
  canonicalSymbol,
  isReExportedWholesale,
  moduleSpecifier,
  namedImportsOf,
  symbolNamedInScope,
} from './import-edits.js';
import {
  type Abstraction,
  abstractionUses,
  hasImplementationByShape,
  isPureAbstractClass,
  type ShapeCandidates,
} from './single-implementation-uses.js';

/** What removing one abstraction takes, as plain data: nodes go stale once the project is edited. */
export interface Removal {
  readonly declarationPath: string;
  readonly name: string;
  readonly line: number;
  readonly abstractClass: boolean;
  readonly classPath: string;
  readonly className: string;
  /** Whether the class names it in `extends` (an abstract class) rather than `implements`. */
  readonly viaExtends: boolean;
  /** Absolute file path → start of each type reference to rename to the class. */
  readonly renames: ReadonlyMap<string, readonly number[]>;
  /** Absolute file path → module specifier of the class's file, for files that must import it. */
  readonly imports: ReadonlyMap<string, string>;
}

/** A candidate, its one implementation found, that the pass leaves alone: which class, and why. */
export interface Refusal {
  readonly className: string;
  readonly viaExtends: boolean;
  readonly reason: string;
}

/**
 * The removal of `abstraction`; a refusal, saying why, when it has one implementing class but
 * removing it is not provably safe or would change the public API (a public signature names it,
 * or a public class would lose its base class); undefined when it is no candidate (several
 * implementations or none, uses other than types) or is public API itself, which the run's
 * public API notes already say.
 */
export function planRemoval(
  abstraction: Abstraction,
  candidates: () => ShapeCandidates,
  publicApi: PublicApi,
): Removal | Refusal | undefined {
  const name = abstraction.getName();
  if (name === undefined) return undefined;
  if (isPublic(publicApi, abstraction.getSourceFile().getFilePath(), name)) return undefined;
  if (abstraction.isExported() && isReExportedWholesale(abstraction.getSourceFile()))
    return undefined;
  const uses = abstractionUses(abstraction);
  const entry = uses?.heritage.length === 1 ? uses.heritage[0] : undefined;
  if (uses === undefined || entry === undefined) return undefined;
  const implementer = entry.getFirstAncestorByKind(ts.SyntaxKind.ClassDeclaration);
  const className = implementer?.getName();
  if (implementer === undefined || className === undefined) return undefined;
  const clause = entry.getParentIfKind(ts.SyntaxKind.HeritageClause);
  const viaExtends = clause?.getToken() === ts.SyntaxKind.ExtendsKeyword;
  const classPath = implementer.getSourceFile().getFilePath();
  const refused = (reason: string): Refusal => ({ className, viaExtends, reason });
  const why =
    notLone(abstraction, entry) ??
    misfit(abstraction, implementer, viaExtends) ??
    (viaExtends && isPublic(publicApi, classPath, className)
      ? 'the subclass is public API and would lose its base class'
      : undefined) ??
    (uses.typeReferences.some((reference) => inPublicSignature(publicApi, reference))
      ? 'a public signature names it'
      : undefined) ??
    (hasImplementationByShape(abstraction, implementer, candidates())
      ? 'another class or object has its shape and may stand where it is expected'
      : undefined);
  if (why !== undefined) return refused(why);
  const imports = importsNeeded(abstraction, implementer, uses.typeReferences);
  if (imports === undefined)
    return refused(
      'a file naming it cannot import the class (the name means something else there, the class is not exported, or the import would close a cycle)',
    );
  const renames = new Map<string, number[]>();
  for (const reference of uses.typeReferences) {
    const path = reference.getSourceFile().getFilePath();
    renames.set(path, [...(renames.get(path) ?? []), reference.getStart()]);
  }
  return {
    declarationPath: abstraction.getSourceFile().getFilePath(),
    name,
    line: abstraction.getStartLineNumber(),
    abstractClass: Node.isClassDeclaration(abstraction),
    classPath,
    className,
    viaExtends,
    renames,
    imports,
  };
}

/** Why it is not one plain declaration: generic, a default export, merged, extending another. */
function notLone(abstraction: Abstraction, entry: ExpressionWithTypeArguments): string | undefined {
  if (abstraction.getTypeParameters().length > 0 || entry.getTypeArguments().length > 0)
    return 'it is generic, and its users would lose the type it is given';
  if (abstraction.isDefaultExport()) return "it is its file's default export";
  if (Node.isInterfaceDeclaration(abstraction) && abstraction.getExtends().length > 0)
    return 'it extends another interface';
  if (abstraction.getSymbol()?.getDeclarations().length !== 1)
    return 'it is declared more than once (merged declarations)';
  if (Node.isClassDeclaration(abstraction) && !isPureAbstractClass(abstraction))
    return 'it holds more than abstract declarations (a method body, a field, a constructor, a decorator or a base), which the subclass inherits';
  return undefined;
}

/** Why the class cannot simply take the abstraction's place in every type. */
function misfit(
  abstraction: Abstraction,
  implementer: ClassDeclaration,
  viaExtends: boolean,
): string | undefined {
  if (implementer === abstraction) return 'it names itself';
  if (implementer.getTypeParameters().length > 0) return 'the class is generic';
  if (implementer.getSourceFile().isDeclarationFile()) return 'the class is in a declaration file';
  if (!Node.isSourceFile(implementer.getParent()))
    return 'the class is not declared at the top of its file';
  if (viaExtends && !onlyBareSuperCall(implementer))
    return 'the subclass calls its base (super) beyond a bare super()';
  return undefined;
}

/**
 * `super` appears only as a leading `super();` of the one constructor: the base has no
 * constructor, so that call does nothing and can go with the `extends`.
 */
function onlyBareSuperCall(implementer: ClassDeclaration): boolean {
  const supers = implementer.getDescendantsOfKind(ts.SyntaxKind.SuperKeyword).length;
  const constructors = implementer.getConstructors().filter((c) => c.getBody() !== undefined);
  const [initializer, ...others] = constructors;
  if (initializer === undefined) return supers === 0;
  const first = initializer.getStatements()[0];
  return others.length === 0 && supers === 1 && first !== undefined && isBareSuperCall(first);
}

export function isBareSuperCall(statement: Node): boolean {
  if (!Node.isExpressionStatement(statement)) return false;
  const call = statement.getExpression();
  return (
    Node.isCallExpression(call) &&
    call.getExpression().getKind() === ts.SyntaxKind.SuperKeyword &&
    call.getArguments().length === 0
  );
}

/**
 * The files that must import the class, with the specifier; undefined when one cannot: the
 * name means something else there, the class is not exported, or the import would close a cycle.
 */
function importsNeeded(
  abstraction: Abstraction,
  implementer: ClassDeclaration,
  typeReferences: readonly Identifier[],
): Map<string, string> | undefined {
  const className = implementer.getName() ?? '';
  const classSymbol = implementer.getSymbol();
  if (classSymbol === undefined) return undefined;
  const classFile = implementer.getSourceFile();
  const imports = new Map<string, string>();
  for (const file of new Set(typeReferences.map((reference) => reference.getSourceFile()))) {
    let needsImport = false;
    for (const reference of typeReferences.filter((r) => r.getSourceFile() === file)) {
      const inScope = symbolNamedInScope(reference, className);
      if (inScope === undefined) needsImport = true;
      else if (canonicalSymbol(inScope) !== canonicalSymbol(classSymbol)) return undefined;
    }
    if (!needsImport) continue;
    if (file === classFile || !implementer.hasExportKeyword() || implementer.isDefaultExport())
      return undefined;
    const alreadyImported = file
      .getImportDeclarations()
      .some((declaration) => declaration.getModuleSpecifierSourceFile() === classFile);
    if (!alreadyImported && importsDirectly(classFile, file, abstraction.getName() ?? ''))
      return undefined;
    const like = styleSpecifier(file, abstraction, classFile);
    imports.set(file.getFilePath(), moduleSpecifier(file, classFile, like));
  }
  return imports;
}

/**
 * Whether `from` imports or re-exports `to` itself. An import of nothing but the abstraction
 * does not count: the change removes it.
 */
function importsDirectly(from: SourceFile, to: SourceFile, abstractionName: string): boolean {
  const imports = from.getImportDeclarations().some((declaration) => {
    if (declaration.getModuleSpecifierSourceFile() !== to) return false;
    const onlyAbstraction =
      declaration.getDefaultImport() === undefined &&
      declaration.getNamespaceImport() === undefined &&
      declaration.getNamedImports().every((specifier) => specifier.getName() === abstractionName);
    return !onlyAbstraction;
  });
  return (
    imports ||
    from
      .getExportDeclarations()
      .some((declaration) => declaration.getModuleSpecifierSourceFile() === to)
  );
}

/** An existing specifier whose style (extension or none) the new import should follow. */
function styleSpecifier(file: SourceFile, abstraction: Abstraction, classFile: SourceFile): string {
  const abstractionFile = abstraction.getSourceFile();
  const name = abstraction.getName() ?? '';
  const existing = [
    ...namedImportsOf(file, name, abstractionFile),
    ...namedImportsOf(classFile, name, abstractionFile),
  ];
  const relative = [...file.getImportDeclarations(), ...classFile.getImportDeclarations()].filter(
    (declaration) => declaration.isModuleSpecifierRelative(),
  );
  return (
    existing[0]?.getImportDeclaration().getModuleSpecifierValue() ??
    relative[0]?.getModuleSpecifierValue() ??
    ''
  );
}
