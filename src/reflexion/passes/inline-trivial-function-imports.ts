import {
  type ImportDeclaration,
  type ImportSpecifier,
  Node,
  type SourceFile,
  SyntaxKind,
} from 'ts-morph';

/**
 * The import bindings of its file that `node` names: once `node` is deleted (a function whose
 * parameter types name them, say), nothing may name them any more, and an unused import is
 * what the next lint run would complain of.
 */
export function importsNamedIn(node: Node): string[] {
  const imported = new Set(node.getSourceFile().getImportDeclarations().flatMap(localNames));
  const named = (
    Node.isIdentifier(node) ? [node] : node.getDescendantsOfKind(SyntaxKind.Identifier)
  )
    .map((identifier) => identifier.getText())
    .filter((name) => imported.has(name));
  return [...new Set(named)].sort();
}

/**
 * Drops the bindings among `names` that no identifier of the file outside its imports spells
 * any more (by text: a property of the same name keeps one, which errs on the safe side), and
 * an import left with no binding at all. Not in a file with JSX, which may use `React` unseen.
 */
export function dropImportsLeftUnused(file: SourceFile, names: readonly string[]): void {
  if (names.length === 0 || file.getFirstDescendantByKind(SyntaxKind.JsxOpeningElement)) return;
  if (file.getFirstDescendantByKind(SyntaxKind.JsxSelfClosingElement)) return;
  const spelled = new Set(
    file
      .getDescendantsOfKind(SyntaxKind.Identifier)
      .filter((identifier) => !identifier.getFirstAncestorByKind(SyntaxKind.ImportDeclaration))
      .map((identifier) => identifier.getText()),
  );
  const unused = (name: string): boolean => names.includes(name) && !spelled.has(name);
  for (const declaration of file.getImportDeclarations()) {
    if (!localNames(declaration).some(unused)) continue;
    const specifiers = declaration.getNamedImports();
    const gone = specifiers.filter((specifier) => unused(localName(specifier)));
    if (gone.length === specifiers.length && gone.length > 0) declaration.removeNamedImports();
    else for (const specifier of gone) specifier.remove();
    const defaultImport = declaration.getDefaultImport();
    if (defaultImport && unused(defaultImport.getText())) declaration.removeDefaultImport();
    const namespace = declaration.getNamespaceImport();
    if (namespace && unused(namespace.getText())) declaration.removeNamespaceImport();
    if (localNames(declaration).length === 0) declaration.remove();
  }
}

function localNames(declaration: ImportDeclaration): string[] {
  return [
    declaration.getDefaultImport()?.getText(),
    declaration.getNamespaceImport()?.getText(),
    ...declaration.getNamedImports().map(localName),
  ].filter((name): name is string => name !== undefined);
}

function localName(specifier: ImportSpecifier): string {
  return specifier.getAliasNode()?.getText() ?? specifier.getName();
}
