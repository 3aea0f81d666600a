import {
  type FunctionDeclaration,
  type Identifier,
  type Symbol as MorphSymbol,
  Node,
  type SourceFile,
  SyntaxKind,
  ts,
} from 'ts-morph';
import { isPublic, type PublicApi } from '../public-api/public-api.js';
import { canonicalSymbol, importsNamedIn, symbolNamedInScope } from './import-edits.js';

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
  const symbol = symbolNamedInScope(where, name);
  return !symbol || meanings.has(canonicalSymbol(symbol));
}

function canonicalOf(fn: FunctionDeclaration): unknown {
  const symbol = fn.getSymbol();
  return symbol && canonicalSymbol(symbol);
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

/**
 * A module-level function another could stand in for: named, with a body, one signature, not
 * generic (type parameters make "the same text" depend on inference at each call), not a default
 * export, and no `this` (its meaning comes from the call, and two callers may differ).
 */
export function mergeable(fn: FunctionDeclaration): boolean {
  if (!fn.getName() || !fn.getBody() || fn.isDefaultExport()) return false;
  if (fn.getOverloads().length > 0 || fn.getTypeParameters().length > 0) return false;
  return fn.getFirstDescendantByKind(SyntaxKind.ThisKeyword) === undefined;
}

/**
 * The function without its name: modifiers that change what calling it does, then the tokens of
 * its parameters, return type and body. Tokens, not printed text: the printer keeps some line
 * breaks (before a `.`), and comments and whitespace should not tell two copies apart.
 */
export function functionKey(fn: FunctionDeclaration): string {
  const sourceFile = fn.getSourceFile().compilerNode;
  const parts = [...fn.getParameters(), fn.getReturnTypeNode(), fn.getBody()];
  const words = [fn.isAsync() ? 'async' : '', fn.isGenerator() ? '*' : '', '('];
  for (const part of parts) {
    if (part) tokens(part.compilerNode, sourceFile, words);
    words.push('\u0000');
  }
  return words.join(' ');
}

function tokens(node: ts.Node, sourceFile: ts.SourceFile, words: string[]): void {
  if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
  const children = node.getChildren(sourceFile);
  if (children.length === 0) {
    const text = node.getText(sourceFile);
    if (text !== '') words.push(text);
  }
  for (const child of children) tokens(child, sourceFile, words);
}

/**
 * Whether the same text means the same in both places: each name either is declared inside its
 * own function (a parameter, a local) in both, or is the very same declaration in both. Two
 * files may each have their own `cache` or import different `format`s under one name.
 */
export function sameMeaning(a: FunctionDeclaration, b: FunctionDeclaration): boolean {
  const namesA = names(a);
  const namesB = names(b);
  if (namesA.length !== namesB.length) return false;
  return namesA.every((nameA, index) => {
    const nameB = namesB[index];
    if (!nameB || nameA.getText() !== nameB.getText()) return false;
    const value = (name: Identifier) => {
      const parent = name.getParent();
      return Node.isShorthandPropertyAssignment(parent) ? parent.getValueSymbol() : undefined;
    };
    const symbolA = nameA.getSymbol();
    const symbolB = nameB.getSymbol();
    // A member of an untyped value resolves to nothing; any other name must resolve.
    if (!symbolA && !symbolB && !isMemberName(nameA)) return false;
    return sameSymbol(symbolA, a, symbolB, b) && sameSymbol(value(nameA), a, value(nameB), b);
  });
}

function isMemberName(name: Identifier): boolean {
  const parent = name.getParent();
  return Node.isPropertyAccessExpression(parent) && parent.getNameNode() === name;
}

function names(fn: FunctionDeclaration): Identifier[] {
  const own = fn.getNameNode();
  return fn.getDescendantsOfKind(SyntaxKind.Identifier).filter((name) => name !== own);
}

function sameSymbol(
  a: MorphSymbol | undefined,
  fnA: FunctionDeclaration,
  b: MorphSymbol | undefined,
  fnB: FunctionDeclaration,
): boolean {
  if (!a || !b) return a === b;
  const localA = declaredWithin(a, fnA);
  if (localA !== declaredWithin(b, fnB)) return false;
  return localA || canonicalSymbol(a) === canonicalSymbol(b);
}

function declaredWithin(symbol: MorphSymbol, fn: FunctionDeclaration): boolean {
  const declarations = symbol.getDeclarations();
  return (
    declarations.length > 0 &&
    declarations.every(
      (declaration) =>
        declaration.getSourceFile() === fn.getSourceFile() &&
        fn.containsRange(declaration.getPos(), declaration.getEnd()),
    )
  );
}
