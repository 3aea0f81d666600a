import {
  type Identifier,
  type ImportDeclaration,
  Node,
  type Project,
  type SourceFile,
  ts,
} from 'ts-morph';

/** Whether `node` lies inside `container` (or is it). */
export function isWithin(node: Node, container: Node): boolean {
  return (
    node.getSourceFile() === container.getSourceFile() &&
    node.getStart() >= container.getStart() &&
    node.getEnd() <= container.getEnd()
  );
}

const LITERALS = new Set([
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

/**
 * Whether evaluating `expression` can do nothing but produce a value: a literal, a function, a
 * name, or an object or array of those. Anything that could call code (a call, `new`, a getter
 * behind a property access, a spread's iterator, a template's toString) is not, so removing it
 * could change behaviour.
 */
export function isSideEffectFree(expression: Node | undefined): boolean {
  if (expression === undefined) return true;
  if (LITERALS.has(expression.getKind())) return true;
  if (
    Node.isIdentifier(expression) ||
    Node.isArrowFunction(expression) ||
    Node.isFunctionExpression(expression)
  )
    return true;
  if (
    Node.isParenthesizedExpression(expression) ||
    Node.isAsExpression(expression) ||
    Node.isSatisfiesExpression(expression) ||
    Node.isTypeAssertion(expression) ||
    Node.isNonNullExpression(expression)
  )
    return isSideEffectFree(expression.getExpression());
  if (Node.isPrefixUnaryExpression(expression))
    return (
      [ts.SyntaxKind.MinusToken, ts.SyntaxKind.PlusToken].includes(expression.getOperatorToken()) &&
      (Node.isNumericLiteral(expression.getOperand()) ||
        Node.isBigIntLiteral(expression.getOperand()))
    );
  if (Node.isArrayLiteralExpression(expression))
    return expression
      .getElements()
      .every((element) => Node.isOmittedExpression(element) || isSideEffectFree(element));
  if (Node.isObjectLiteralExpression(expression))
    return expression.getProperties().every(isSideEffectFreeProperty);
  return false;
}

function isSideEffectFreeProperty(property: Node): boolean {
  if (Node.isShorthandPropertyAssignment(property)) return true;
  if (
    !Node.isPropertyAssignment(property) &&
    !Node.isMethodDeclaration(property) &&
    !Node.isGetAccessorDeclaration(property) &&
    !Node.isSetAccessorDeclaration(property)
  )
    return false;
  // A computed key is converted to a property key, which may call toString: literals only.
  const name = property.getNameNode();
  if (Node.isComputedPropertyName(name) && !LITERALS.has(name.getExpression().getKind()))
    return false;
  return !Node.isPropertyAssignment(property) || isSideEffectFree(property.getInitializer());
}

type RemovalKind = 'import' | 'local' | 'private member';

/** Something unused in a file, and how to take it out. */
export interface Removal {
  readonly kind: RemovalKind;
  /** How many names go: one import declaration may lose several. */
  readonly count: number;
  readonly node: Node;
  remove(): void;
}

/** Drops removals inside another one: they go with it, and counting them twice would mislead. */
export function outermost(removals: readonly Removal[]): Removal[] {
  return removals.filter(
    (removal) => !removals.some((other) => other !== removal && isWithin(removal.node, other.node)),
  );
}

/**
 * Removes from the end of the file backwards, so that no removal moves or rewraps a node
 * another one still has to find.
 */
export function applyRemovals(removals: readonly Removal[]): void {
  const ordered = [...removals].sort((a, b) => b.node.getStart() - a.node.getStart());
  for (const removal of ordered) removal.remove();
}

/** "3 unused imports and 1 unused local". */
export function describeRemovals(removals: readonly Removal[]): string {
  const parts: string[] = [];
  for (const kind of ['import', 'local', 'private member'] as const) {
    const count = removals
      .filter((removal) => removal.kind === kind)
      .reduce((sum, removal) => sum + removal.count, 0);
    if (count > 0) parts.push(`${count} unused ${kind}${count > 1 ? 's' : ''}`);
  }
  const last = parts.pop() ?? '';
  return parts.length > 0 ? `${parts.join(', ')} and ${last}` : last;
}

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
  return importRemovals(
    file,
    (binding, declaration) =>
      consider(binding.getText()) &&
      !implicit.has(binding.getText()) &&
      // Named nowhere in the file but in its own import declaration.
      (inFile.get(nameText(binding)) ?? 0) <= occurrencesWithin(declaration, nameText(binding)),
  );
}

/**
 * The import bindings of `file` that `unused` picks, one removal per declaration: the bindings
 * alone, or the declaration with `removeWhole` when none of its bindings is left.
 */
export function importRemovals(
  file: SourceFile,
  unused: (binding: Identifier, declaration: ImportDeclaration) => boolean,
  removeWhole = (declaration: ImportDeclaration): void => declaration.remove(),
): Removal[] {
  const removals: Removal[] = [];
  for (const declaration of file.getImportDeclarations()) {
    const bindings = bindingsOf(declaration);
    const gone = bindings.filter((binding) => unused(binding, declaration));
    if (gone.length === 0) continue;
    const names = new Set(gone.map((binding) => binding.getText()));
    removals.push({
      kind: 'import',
      count: gone.length,
      node: declaration,
      remove: () =>
        gone.length === bindings.length
          ? removeWhole(declaration)
          : removeBindings(declaration, names),
    });
  }
  return removals;
}

/** The local names an import declaration introduces. */
export function bindingsOf(declaration: ImportDeclaration): Identifier[] {
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

/** Counts per file, keyed by the compiler's node: an edited file gets a new one, so a new count. */
const counts = new WeakMap<ts.SourceFile, ReadonlyMap<string, number>>();

/**
 * How many times each name appears in a file as a token that could refer to a declaration: an
 * identifier, a `#private` name, or a string (`this['name']`, a key list). The unused-code pass
 * asks this instead of the language service's reference search, which on a large project costs
 * tens of milliseconds a name: a name that appears once is its declaration alone, so nothing
 * refers to it; a name that appears again is taken as used, even when the other occurrence is
 * another symbol (a property, a shadowing local). That loses a few removals and never makes
 * a wrong one.
 */
function occurrencesIn(file: SourceFile): ReadonlyMap<string, number> {
  const compiled = file.compilerNode;
  const known = counts.get(compiled);
  if (known !== undefined) return known;
  const found = new Map<string, number>();
  const visit = (node: ts.Node): void => {
    const text = tokenText(node);
    if (text !== undefined) found.set(text, (found.get(text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(compiled);
  counts.set(compiled, found);
  return found;
}

/** A name as the counts hold it: `\u0061` is `a`, as the compiler reads it. */
function nameText(name: Node): string {
  return tokenText(name.compilerNode) ?? name.getText();
}

/** Whether anything in `name`'s own file, besides `name` itself, spells the same name. */
export function namedAgainInFile(name: Node): boolean {
  return (occurrencesIn(name.getSourceFile()).get(nameText(name)) ?? 0) > 1;
}

/** Whether any file of the project other than `name`'s own spells the same name. */
export function namedInAnotherFile(project: Project, name: Node): boolean {
  const own = name.getSourceFile();
  const text = nameText(name);
  return project
    .getSourceFiles()
    .some((file) => file !== own && (occurrencesIn(file).get(text) ?? 0) > 0);
}

/** How many times `text` appears as such a token inside `node`. */
function occurrencesWithin(node: Node, text: string): number {
  let found = 0;
  const visit = (each: ts.Node): void => {
    if (tokenText(each) === text) found += 1;
    ts.forEachChild(each, visit);
  };
  visit(node.compilerNode);
  return found;
}

function tokenText(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}
