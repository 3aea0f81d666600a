import {
  type Expression,
  type Identifier,
  Node,
  type ParameterDeclaration,
  type ReferenceEntry,
  SyntaxKind,
} from 'ts-morph';

/** A binding no assignment, update or destructuring anywhere in the project writes to. */
export function neverReassigned(identifier: Identifier): boolean {
  if (!identifier.getSymbol()) return false;
  return identifier
    .findReferences()
    .every((symbol) =>
      symbol.getReferences().every((entry) => !reassigns(entry) || declares(entry.getNode())),
    );
}

/**
 * The language service counts `{ a }` as writing `a` (it declares a property): it only does
 * when the object literal is a destructuring assignment's target.
 */
function reassigns(entry: ReferenceEntry): boolean {
  if (!entry.isWriteAccess()) return false;
  const shorthand = entry.getNode().getParent();
  return !Node.isShorthandPropertyAssignment(shorthand) || destructuringTarget(shorthand);
}

function destructuringTarget(element: Node): boolean {
  let pattern = element;
  for (let parent = pattern.getParent(); parent && PATTERN_PARTS.has(parent.getKind()); ) {
    pattern = parent;
    parent = pattern.getParent();
  }
  const parent = pattern.getParent();
  if (Node.isBinaryExpression(parent))
    return (
      parent.getLeft() === pattern && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken
    );
  return (
    (Node.isForOfStatement(parent) || Node.isForInStatement(parent)) &&
    parent.getInitializer() === pattern
  );
}

const PATTERN_PARTS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.ObjectLiteralExpression,
  SyntaxKind.ArrayLiteralExpression,
  SyntaxKind.PropertyAssignment,
  SyntaxKind.ShorthandPropertyAssignment,
  SyntaxKind.SpreadAssignment,
  SyntaxKind.SpreadElement,
  SyntaxKind.ParenthesizedExpression,
]);

/** The name of a declaration: writes its first value, is not a read (nor a reassignment). */
function declares(name: Node): boolean {
  const parent = name.getParent();
  return (
    parent !== undefined &&
    DECLARATIONS.has(parent.getKind()) &&
    Node.hasName(parent) &&
    parent.getNameNode() === name
  );
}

const DECLARATIONS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.VariableDeclaration,
  SyntaxKind.Parameter,
  SyntaxKind.BindingElement,
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.ClassDeclaration,
  SyntaxKind.EnumDeclaration,
  SyntaxKind.ImportSpecifier,
  SyntaxKind.ImportClause,
  SyntaxKind.NamespaceImport,
  SyntaxKind.ImportEqualsDeclaration,
]);

/**
 * The parameter's reads in the body; undefined when it is written, or read outside the body
 * (another parameter's type), where substitution cannot follow it.
 */
export function parameterReads(
  parameter: ParameterDeclaration,
  body: Expression,
): Identifier[] | undefined {
  const name = parameter.getNameNode();
  if (!Node.isIdentifier(name)) return;
  const reads: Identifier[] = [];
  for (const symbol of name.findReferences())
    for (const entry of symbol.getReferences()) {
      const node = entry.getNode();
      if (node === name) continue;
      if (reassigns(entry) || !Node.isIdentifier(node)) return;
      if (node !== body && !body.containsRange(node.getPos(), node.getEnd())) return;
      reads.push(node);
    }
  return reads.sort((a, b) => a.getStart() - b.getStart());
}
