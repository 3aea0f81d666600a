import { type ClassDeclaration, type Identifier, Node, type SourceFile, ts } from 'ts-morph';
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

/**
 * The removal of `abstraction`, or undefined when it is not provably safe or would change the
 * public API: the abstraction is public, a public signature names it, or a public class would
 * lose its base class.
 */
export function planRemoval(
  abstraction: Abstraction,
  candidates: () => ShapeCandidates,
  publicApi: PublicApi,
): Removal | undefined {
  const name = abstraction.getName();
  if (name === undefined || !isLoneDeclaration(abstraction)) return undefined;
  if (isPublic(publicApi, abstraction.getSourceFile().getFilePath(), name)) return undefined;
  if (abstraction.isExported() && isReExportedWholesale(abstraction.getSourceFile()))
    return undefined;
  const uses = abstractionUses(abstraction);
  const entry = uses?.heritage.length === 1 ? uses.heritage[0] : undefined;
  if (uses === undefined || entry === undefined || entry.getTypeArguments().length > 0)
    return undefined;
  const implementer = entry.getFirstAncestorByKind(ts.SyntaxKind.ClassDeclaration);
  const className = implementer?.getName();
  if (implementer === undefined || className === undefined) return undefined;
  const clause = entry.getParentIfKind(ts.SyntaxKind.HeritageClause);
  const viaExtends = clause?.getToken() === ts.SyntaxKind.ExtendsKeyword;
  if (!fitsImplementer(abstraction, implementer, viaExtends)) return undefined;
  const classPath = implementer.getSourceFile().getFilePath();
  if (viaExtends && isPublic(publicApi, classPath, className)) return undefined;
  if (uses.typeReferences.some((reference) => inPublicSignature(publicApi, reference)))
    return undefined;
  if (hasImplementationByShape(abstraction, implementer, candidates())) return undefined;
  const imports = importsNeeded(abstraction, implementer, uses.typeReferences);
  if (imports === undefined) return undefined;
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

/** Not generic, not a default export, not merged, not extending anything. */
function isLoneDeclaration(abstraction: Abstraction): boolean {
  if (abstraction.getTypeParameters().length > 0 || abstraction.isDefaultExport()) return false;
  if (Node.isInterfaceDeclaration(abstraction) && abstraction.getExtends().length > 0) return false;
  return abstraction.getSymbol()?.getDeclarations().length === 1;
}

function fitsImplementer(
  abstraction: Abstraction,
  implementer: ClassDeclaration,
  viaExtends: boolean,
): boolean {
  if (implementer === abstraction || implementer.getTypeParameters().length > 0) return false;
  if (implementer.getSourceFile().isDeclarationFile()) return false;
  if (!Node.isSourceFile(implementer.getParent())) return false;
  if (!viaExtends) return true;
  return Node.isClassDeclaration(abstraction) && onlyBareSuperCall(implementer);
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
