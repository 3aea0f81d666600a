import { Node, ts } from 'ts-morph';

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
