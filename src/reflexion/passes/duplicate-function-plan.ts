import { type FunctionDeclaration, Node, type SourceFile, ts } from 'ts-morph';
import { isPublic, type PublicApi } from '../public-api/public-api.js';
import { canonical } from './duplicate-function-key.js';
import { importsNamedIn } from './import-edits.js';

/** A span of a file, by absolute path: nodes go stale once a proposal has been captured. */
export interface Span {
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/** How to replace a duplicate by its keeper, as plain data. */
export interface Merge {
  readonly keeperPath: string;
  readonly keeperName: string;
  readonly duplicatePath: string;
  readonly duplicateName: string;
  readonly exportKeeper: boolean;
  /** References to the duplicate by its own name, to call the keeper's instead. */
  readonly renames: readonly Span[];
  /** `import { duplicate }` specifiers, to import the keeper instead (under `alias`, if any). */
  readonly movedImports: readonly (Span & { readonly alias?: string })[];
  /** The duplicate's file, when its own uses of the duplicate need the keeper imported. */
  readonly importInto?: string;
  /** Imports of the duplicate's file it names, which may go with it. */
  readonly duplicateImports: readonly string[];
}

/**
 * How the duplicate's references can move to the keeper; undefined when one cannot, or when the
 * duplicate is public API (callers outside the repository use it by its name, in its module).
 */
export function mergePlan(
  keeper: FunctionDeclaration,
  duplicate: FunctionDeclaration,
  publicApi: PublicApi,
): Merge | undefined {
  const keeperName = keeper.getName();
  const duplicateName = duplicate.getName();
  const keeperFile = keeper.getSourceFile();
  const duplicateFile = duplicate.getSourceFile();
  if (!keeperName || !duplicateName) return;
  if (keeper.isExported() && !keeper.hasExportKeyword()) return;
  if (duplicate.isExported() && isPublic(publicApi, duplicateFile.getFilePath(), duplicateName))
    return;
  if (!references(keeper).every((ref) => plainUse(ref) || importedByName(ref))) return;
  const meanings = new Set([canonicalOf(keeper), canonicalOf(duplicate)]);
  const renames: Span[] = [];
  const movedImports: (Span & { alias?: string })[] = [];
  /** Files the keeper will be imported into, with the local name it will have there. */
  const bindings: { readonly file: SourceFile; readonly local: string }[] = [];
  let importInto: string | undefined;
  for (const ref of references(duplicate)) {
    const file = ref.getSourceFile();
    const parent = ref.getParent();
    if (Node.isImportSpecifier(parent)) {
      if (!importedByName(ref)) return;
      const alias = parent.getAliasNode()?.getText();
      if (file === keeperFile && alias !== undefined) return;
      const moved = span(parent);
      if (movedImports.some(({ path, start }) => path === moved.path && start === moved.start))
        continue;
      movedImports.push(alias === undefined || alias === keeperName ? moved : { ...moved, alias });
      if (file !== keeperFile) bindings.push({ file, local: alias ?? keeperName });
      continue;
    }
    if (!plainUse(ref)) return;
    // A use under an import alias keeps its name: only the import changes.
    if (ref.getText() !== duplicateName) continue;
    if (!freeAt(ref, keeperName, meanings)) return;
    if (Node.isShorthandPropertyAssignment(parent) && keeperName !== duplicateName) return;
    if (keeperName !== duplicateName) renames.push(span(ref));
    if (file === duplicateFile && file !== keeperFile && importInto === undefined) {
      importInto = file.getFilePath();
      bindings.push({ file, local: keeperName });
    }
  }
  for (const { file, local } of bindings) {
    // An import would turn a script (or a CommonJS file) into an ES module, moving its globals.
    if (!ts.isExternalModule(file.compilerNode)) return;
    if (!freeAt(file, local, meanings) || dependsOn(keeperFile, file)) return;
  }
  const exportKeeper = bindings.length > 0 && !keeper.isExported();
  if (exportKeeper && !ts.isExternalModule(keeperFile.compilerNode)) return;
  return {
    keeperPath: keeperFile.getFilePath(),
    keeperName,
    duplicatePath: duplicateFile.getFilePath(),
    duplicateName,
    exportKeeper,
    renames,
    movedImports,
    duplicateImports: importsNamedIn(duplicate),
    ...(importInto === undefined ? {} : { importInto }),
  };
}

/** References outside the function itself (its own recursive calls go with it). */
function references(fn: FunctionDeclaration): Node[] {
  const name = fn.getNameNode();
  if (!name) return [];
  return name
    .findReferencesAsNodes()
    .filter(
      (ref) =>
        ref.getSourceFile() !== fn.getSourceFile() || !fn.containsRange(ref.getPos(), ref.getEnd()),
    );
}

/**
 * A call or the function passed around as a value: what works the same whichever of two
 * identical functions it names; what sets properties on it or compares it by identity does not.
 */
function plainUse(ref: Node): boolean {
  const parent = ref.getParent();
  if (!Node.isIdentifier(ref) || !parent) return false;
  if (Node.isElementAccessExpression(parent)) return parent.getExpression() !== ref;
  return !NOT_PLAIN.some((is) => is(parent));
}

/** Member access, `new`, `typeof` in a type, re-exports, and comparisons by identity. */
const NOT_PLAIN: readonly ((node: Node) => boolean)[] = [
  Node.isPropertyAccessExpression,
  Node.isBinaryExpression,
  Node.isNewExpression,
  Node.isTypeQuery,
  Node.isExportSpecifier,
  Node.isExportAssignment,
  Node.isImportSpecifier,
  Node.isImportClause,
  Node.isNamespaceImport,
  Node.isQualifiedName,
  Node.isPrefixUnaryExpression,
  Node.isPostfixUnaryExpression,
];

/** `import { fn }` or `import { fn as other }`, for values: these move with the function. */
function importedByName(ref: Node): boolean {
  const specifier = ref.getParent();
  return (
    Node.isImportSpecifier(specifier) &&
    !specifier.isTypeOnly() &&
    !specifier.getImportDeclaration().isTypeOnly()
  );
}

/** `name` at `where` means nothing yet, or one of the two functions. */
function freeAt(where: Node, name: string, meanings: ReadonlySet<unknown>): boolean {
  const flags =
    ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias;
  const symbol = where.getSymbolsInScope(flags).find((candidate) => candidate.getName() === name);
  return !symbol || meanings.has(canonical(symbol));
}

function canonicalOf(fn: FunctionDeclaration): unknown {
  const symbol = fn.getSymbol();
  return symbol && canonical(symbol);
}

/**
 * Whether `from` already depends on `to`: importing the keeper into `to` would close a cycle
 * and change which module is evaluated first.
 */
function dependsOn(from: SourceFile, to: SourceFile): boolean {
  const seen = new Set<SourceFile>([from]);
  const queue = [from];
  for (let file = queue.shift(); file; file = queue.shift())
    for (const declaration of [...file.getImportDeclarations(), ...file.getExportDeclarations()]) {
      const target = declaration.getModuleSpecifierSourceFile();
      if (target === to) return true;
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  return false;
}

function span(node: Node): Span {
  return { path: node.getSourceFile().getFilePath(), start: node.getStart(), end: node.getEnd() };
}
