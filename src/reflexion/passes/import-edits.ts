import {
  type Identifier,
  type ImportDeclaration,
  type ImportSpecifier,
  type Symbol as MorphSymbol,
  Node,
  type Project,
  type SourceFile,
  SyntaxKind,
  ts,
} from 'ts-morph';
import { lineStart, removeStatement, replaceRange } from './text-edits.js';
import { applyRemovals, bindingsOf, importRemovals } from './unused-code-references.js';

/**
 * Import helpers shared by the passes that point references at another declaration
 * (single-implementation, pass-through-wrapper) or delete one (inline-trivial-function,
 * duplicate-function).
 */

/** Where a file imports a name from: a project file, or a package by its specifier. */
export interface ImportTarget {
  readonly file: SourceFile | undefined;
  readonly specifier: string;
}

function importsFrom(declaration: ImportDeclaration, target: ImportTarget): boolean {
  const file = declaration.getModuleSpecifierSourceFile();
  if (target.file !== undefined && file === target.file) return true;
  return declaration.getModuleSpecifierValue() === target.specifier;
}

/**
 * The specifier `from` would import `to` by, written the way `like` (an import the file already
 * has) is: with a `.js`, with a `.ts` or without an extension, so the project's convention holds.
 */
export function moduleSpecifier(from: SourceFile, to: SourceFile, like: string): string {
  const path = relativeFilePath(from.getDirectoryPath(), to.getFilePath());
  const bare = path.replace(/\.[cm]?[jt]sx?$/, '');
  const extension = path.slice(bare.length);
  if (/\.[cm]?jsx?$/.test(like)) return `${bare}${javaScriptExtension(extension)}`;
  if (/\.[cm]?tsx?$/.test(like)) return path;
  return bare;
}

function javaScriptExtension(extension: string): string {
  if (extension === '.mts' || extension === '.mjs') return '.mjs';
  if (extension === '.cts' || extension === '.cjs') return '.cjs';
  return '.js';
}

function relativeFilePath(fromDirectory: string, to: string): string {
  const from = fromDirectory.split('/').filter((part) => part !== '');
  const target = to.split('/').filter((part) => part !== '');
  let common = 0;
  while (common < from.length && common < target.length - 1 && from[common] === target[common])
    common += 1;
  const rest = target.slice(common).join('/');
  const up = from.length - common;
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

/**
 * Makes `name` imported from `target` in `file`: nothing when it already is, else added to an
 * import of the same module, else a new import line just above `anchor` (the import it comes to
 * replace) or after the last import, quoted as the file's imports are.
 */
export function ensureNamedImport(
  file: SourceFile,
  name: string,
  target: ImportTarget,
  typeOnly: boolean,
  anchor: ImportDeclaration | undefined,
): void {
  const sameModule = file.getImportDeclarations().filter((d) => importsFrom(d, target));
  const usable = (declaration: ImportDeclaration): boolean => typeOnly || !declaration.isTypeOnly();
  for (const declaration of sameModule) {
    for (const specifier of declaration.getNamedImports()) {
      const plain = specifier.getName() === name && specifier.getAliasNode() === undefined;
      if (plain && usable(declaration) && (typeOnly || !specifier.isTypeOnly())) return;
    }
  }
  const host = sameModule.find((d) => usable(d) && d.getNamespaceImport() === undefined);
  if (host !== undefined) {
    host.addNamedImport(name);
    return;
  }
  const quote = file.getImportDeclarations()[0]?.getModuleSpecifier().getQuoteKind() ?? "'";
  const keyword = typeOnly ? 'import type' : 'import';
  const line = `${keyword} { ${name} } from ${quote}${target.specifier}${quote};`;
  const last = file.getImportDeclarations().at(-1);
  if (anchor !== undefined) {
    const at = lineStart(file.getFullText(), anchor.getStart());
    replaceRange(file, at, at, `${line}\n`);
  } else if (last !== undefined) replaceRange(file, last.getEnd(), last.getEnd(), `\n${line}`);
  else replaceRange(file, 0, 0, `${line}\n\n`);
}

/** The import declaration that brings `name` from `module` into `file`. */
export function importOfName(
  file: SourceFile,
  name: string,
  module: SourceFile,
): ImportDeclaration | undefined {
  return namedImportsOf(file, name, module)[0]?.getImportDeclaration();
}

/** `file`'s unaliased imports of `name` from `module`. */
export function namedImportsOf(
  file: SourceFile,
  name: string,
  module: SourceFile,
): ImportSpecifier[] {
  return file
    .getImportDeclarations()
    .filter((declaration) => declaration.getModuleSpecifierSourceFile() === module)
    .flatMap((declaration) => declaration.getNamedImports())
    .filter((specifier) => specifier.getName() === name && specifier.getAliasNode() === undefined);
}

/** Removes every file's import of `name` from the file at `modulePath`. */
export function removeImportsOf(project: Project, name: string, modulePath: string): void {
  const module = project.getSourceFileOrThrow(modulePath);
  const specifier = (binding: Identifier) => binding.getParentIfKind(SyntaxKind.ImportSpecifier);
  const named = (binding: Identifier, declaration: ImportDeclaration): boolean =>
    binding === specifier(binding)?.getNameNode() &&
    binding.getText() === name &&
    declaration.getModuleSpecifierSourceFile() === module;
  for (const file of project.getSourceFiles()) removeImportsAsText(file, named);
}

/**
 * Removes the import bindings `unused` picks, one declaration at a time and found again (a
 * removal as text forgets the file's nodes): a declaration left with none goes as whole lines,
 * so a bare `import './m.js'` does not keep a module (and its side effects) only used for types.
 */
function removeImportsAsText(
  file: SourceFile,
  unused: (binding: Identifier, declaration: ImportDeclaration) => boolean,
): void {
  const found = () => importRemovals(file, unused, removeStatement)[0];
  for (let removal = found(); removal !== undefined; removal = found()) removal.remove();
}

/**
 * The text of every identifier in `node`, itself included, except `skip`: the names a
 * declaration mentions, so the imports it may have been the last user of.
 */
export function identifierNames(node: Node, skip: ReadonlySet<Node> = new Set()): Set<string> {
  const identifiers = Node.isIdentifier(node)
    ? [node]
    : node.getDescendantsOfKind(SyntaxKind.Identifier);
  return new Set(identifiers.filter((id) => !skip.has(id)).map((id) => id.getText()));
}

/**
 * Removes `file`'s named imports among `names` that nothing in the file uses any longer (after a
 * declaration that used them was removed), so no unused import is left behind.
 */
export function removeImportsLeftUnused(file: SourceFile, names: ReadonlySet<string>): void {
  // Conservatively: a name is used where an identifier outside imports spells it, but a
  // property access's name. Only named imports go, a declaration left empty as whole lines.
  const spelled = spelledOutsideImports(file, (id) => {
    const parent = id.getParent();
    return !(Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id);
  });
  const unused = (binding: Identifier): boolean =>
    Node.isImportSpecifier(binding.getParent()) &&
    names.has(binding.getText()) &&
    !spelled.has(binding.getText());
  removeImportsAsText(file, unused);
}

/** The text of every identifier of `file` outside its imports that `counts`. */
function spelledOutsideImports(file: SourceFile, counts: (id: Node) => boolean = () => true) {
  return new Set(
    file
      .getDescendantsOfKind(SyntaxKind.Identifier)
      .filter((id) => !id.getFirstAncestorByKind(SyntaxKind.ImportDeclaration) && counts(id))
      .map((id) => id.getText()),
  );
}

/**
 * What names mean: shared by the passes that point references at another declaration
 * (single-implementation, pass-through-wrapper).
 */

/** The declaration a symbol stands for, through imports: two spellings of one thing share it. */
export function canonicalSymbol(symbol: MorphSymbol): ts.Symbol {
  const target = symbol.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
  return target.getExportSymbol().compilerSymbol;
}

/** What `name` means where `node` is, as a value, type or namespace; undefined when nothing. */
export function symbolNamedInScope(node: Node, name: string): MorphSymbol | undefined {
  const meaning =
    ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace | ts.SymbolFlags.Alias;
  return node.getSymbolsInScope(meaning).find((symbol) => symbol.getName() === name);
}

/**
 * Whether some file re-exports all of `file` (`export * from`, `export * as ns from`): its
 * exports are then public through a module that references do not show.
 */
export function isReExportedWholesale(file: SourceFile): boolean {
  return file
    .getProject()
    .getSourceFiles()
    .some((other) =>
      other
        .getExportDeclarations()
        .some((d) => !d.hasNamedExports() && d.getModuleSpecifierSourceFile() === file),
    );
}

/** Whether a reference sits in a JSDoc comment, which the passes leave alone (and so refuse). */
export function isInJsDoc(node: Node): boolean {
  return (node.compilerNode.flags & ts.NodeFlags.JSDoc) !== 0;
}

/** The names a declaration's name binds: itself, or every name in a destructuring pattern. */
export function bindingNames(name: Node): string[] {
  if (Node.isIdentifier(name)) return [name.getText()];
  return name
    .getDescendantsOfKind(ts.SyntaxKind.BindingElement)
    .map((element) => element.getNameNode())
    .filter(Node.isIdentifier)
    .map((identifier) => identifier.getText());
}

/**
 * The import bindings of its file that `node` names: once `node` is deleted (a function whose
 * parameter types name them, say), nothing may name them any more, and an unused import is
 * what the next lint run would complain of.
 */
export function importsNamedIn(node: Node): string[] {
  const declarations = node.getSourceFile().getImportDeclarations();
  const imported = new Set(declarations.flatMap(bindingsOf).map((binding) => binding.getText()));
  return [...identifierNames(node)].filter((name) => imported.has(name)).sort();
}

/**
 * Drops the bindings among `names` that no identifier of the file outside its imports spells
 * any more (by text: a property of the same name keeps one, which errs on the safe side), and
 * an import left with no binding at all. Not in a file with JSX, which may use `React` unseen.
 */
export function dropImportsLeftUnused(file: SourceFile, names: readonly string[]): void {
  if (names.length === 0 || file.getFirstDescendantByKind(SyntaxKind.JsxOpeningElement)) return;
  if (file.getFirstDescendantByKind(SyntaxKind.JsxSelfClosingElement)) return;
  const spelled = spelledOutsideImports(file);
  const unused = (binding: Identifier) =>
    names.includes(binding.getText()) && !spelled.has(binding.getText());
  applyRemovals(importRemovals(file, unused));
}
