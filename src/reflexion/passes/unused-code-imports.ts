import { type Identifier, type ImportDeclaration, Node, type SourceFile, ts } from 'ts-morph';
import { nameText, occurrencesIn, occurrencesWithin } from './name-occurrences.js';
import type { Removal } from './unused-code-references.js';

/**
 * The import bindings of `file` that nothing in it refers to (a use in a type or in an
 * `export { name }` counts), one removal per declaration. Side-effect imports have no binding
 * and stay. `consider` narrows the search to some local names.
 */
export function unusedImports(
  file: SourceFile,
  consider: (name: string) => boolean = () => true,
): Removal[] {
  const implicit = namesJsxUses(file);
  const inFile = occurrencesIn(file);
  const removals: Removal[] = [];
  for (const declaration of file.getImportDeclarations()) {
    const bindings = bindingsOf(declaration);
    const unused = bindings.filter(
      (binding) =>
        consider(binding.getText()) &&
        !implicit.has(binding.getText()) &&
        // Named nowhere in the file but in its own import declaration.
        (inFile.get(nameText(binding)) ?? 0) <= occurrencesWithin(declaration, nameText(binding)),
    );
    if (unused.length === 0) continue;
    const names = new Set(unused.map((binding) => binding.getText()));
    removals.push({
      kind: 'import',
      count: unused.length,
      node: declaration,
      remove: () =>
        unused.length === bindings.length
          ? declaration.remove()
          : removeBindings(declaration, names),
    });
  }
  return removals;
}

/** The local names an import declaration introduces. */
function bindingsOf(declaration: ImportDeclaration): Identifier[] {
  const bindings = declaration.getNamedImports().map((specifier) => {
    return specifier.getAliasNode() ?? specifier.getNameNode();
  });
  const namespace = declaration.getNamespaceImport();
  const defaultImport = declaration.getDefaultImport();
  return [
    ...(defaultImport === undefined ? [] : [defaultImport]),
    ...(namespace === undefined ? [] : [namespace]),
    ...bindings.filter((binding): binding is Identifier => Node.isIdentifier(binding)),
  ];
}

function removeBindings(declaration: ImportDeclaration, names: ReadonlySet<string>): void {
  for (const specifier of declaration.getNamedImports()) {
    const local = specifier.getAliasNode() ?? specifier.getNameNode();
    if (names.has(local.getText())) specifier.remove();
  }
  const defaultImport = declaration.getDefaultImport();
  if (defaultImport !== undefined && names.has(defaultImport.getText()))
    declaration.removeDefaultImport();
  const namespace = declaration.getNamespaceImport();
  if (namespace !== undefined && names.has(namespace.getText()))
    declaration.removeNamespaceImport();
}

/**
 * Names JSX refers to without writing them: the classic runtime's factory (`React`, or what
 * the compiler options or a `@jsx` pragma name), which an import must keep providing.
 */
function namesJsxUses(file: SourceFile): Set<string> {
  if (!hasJsx(file.compilerNode)) return new Set();
  const options = file.getProject().getCompilerOptions();
  const pragmas = [...file.getFullText().matchAll(/@jsx(?:Frag)?\s+([\w$]+)/g)].map(
    (match) => match[1] ?? '',
  );
  const factories = [options.jsxFactory, options.jsxFragmentFactory, 'React', ...pragmas];
  return new Set(
    factories.flatMap((factory) => (factory === undefined ? [] : [factory.split('.')[0] ?? ''])),
  );
}

/** Walked on the compiler's nodes: ts-morph would wrap every node of the file to look. */
function hasJsx(file: ts.SourceFile): boolean {
  if (file.languageVariant !== ts.LanguageVariant.JSX) return false;
  const isJsx = (node: ts.Node): boolean =>
    ts.isJsxElement(node) ||
    ts.isJsxSelfClosingElement(node) ||
    ts.isJsxFragment(node) ||
    ts.forEachChild(node, isJsx) === true;
  return isJsx(file);
}
