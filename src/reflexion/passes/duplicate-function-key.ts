import {
  type FunctionDeclaration,
  type Identifier,
  type Symbol as MorphSymbol,
  Node,
  SyntaxKind,
  ts,
} from 'ts-morph';

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
  return localA || canonical(a) === canonical(b);
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

/** The declaration a name finally means: through imports, and local symbols to exported ones. */
export function canonical(symbol: MorphSymbol): ts.Symbol {
  const target = symbol.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
  return target.getExportSymbol().compilerSymbol;
}
