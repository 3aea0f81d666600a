import {
  type Expression,
  type Identifier,
  Node,
  type ParameterDeclaration,
  type ReferenceEntry,
  SyntaxKind,
  ts,
} from 'ts-morph';

/**
 * A call evaluates every argument once, in order, before the body runs; the inlined expression
 * evaluates each at its use. The two agree for an argument whose value can neither change nor
 * have an effect (a literal, a binding nothing reassigns) wherever and however often it is read;
 * any other argument must be read exactly once, unconditionally, in argument order, with nothing
 * in the body evaluated before it that could run code or read state that code might change.
 */
export function isConstantArgument(argument: Expression): boolean {
  if (LITERALS.has(argument.getKind())) return true;
  if (Node.isPrefixUnaryExpression(argument))
    return (
      argument.getOperatorToken() === SyntaxKind.MinusToken &&
      LITERALS.has(argument.getOperand().getKind())
    );
  return Node.isIdentifier(argument) && neverReassigned(argument);
}

const LITERALS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.StringLiteral,
  SyntaxKind.NumericLiteral,
  SyntaxKind.BigIntLiteral,
  SyntaxKind.NoSubstitutionTemplateLiteral,
  SyntaxKind.TrueKeyword,
  SyntaxKind.FalseKeyword,
  SyntaxKind.NullKeyword,
]);

/**
 * Whether the body reads `uses` (the reads of the non-constant arguments, in argument order)
 * as the call evaluated them: once each, in order, unconditionally, and before anything else
 * that could run code or read changeable state. `constantReads` are reads of constant arguments.
 */
export function evaluatesAsBefore(
  body: Expression,
  uses: readonly Identifier[],
  constantReads: ReadonlySet<Node>,
): boolean {
  const last = uses.at(-1);
  if (!last) return true;
  for (let index = 1; index < uses.length; index++)
    if ((uses[index]?.getStart() ?? 0) <= (uses[index - 1]?.getStart() ?? 0)) return false;
  if (!uses.every((use) => unconditional(use, body))) return false;
  const earlier = new Set<Node>([...uses, ...constantReads]);
  let quiet = true;
  const check = (node: Node, skip: () => void): void => {
    if (node.getEnd() > last.getStart()) return;
    if (Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isTypeNode(node)) {
      skip();
      return;
    }
    if (!evaluatesQuietly(node, earlier)) quiet = false;
  };
  check(body, () => undefined);
  body.forEachDescendant((node, traversal) => {
    check(node, () => traversal.skip());
    if (!quiet) traversal.stop();
  });
  return quiet;
}

/** Evaluated every time the body is: not behind `&&`, `?:`, `?.` or inside a nested function. */
function unconditional(use: Node, body: Expression): boolean {
  for (let child: Node = use; child !== body; ) {
    const parent = child.getParent();
    if (!parent || Node.isFunctionLikeDeclaration(parent) || Node.isFunctionExpression(parent))
      return false;
    if (Node.isClassExpression(parent)) return false;
    if (Node.isBinaryExpression(parent) && parent.getRight() === child)
      if (SHORT_CIRCUIT.has(parent.getOperatorToken().getKind())) return false;
    if (Node.isConditionalExpression(parent) && parent.getCondition() !== child) return false;
    if (ts.isOptionalChain(parent.compilerNode) && !chainedOn(parent, child)) return false;
    child = parent;
  }
  return true;
}

const SHORT_CIRCUIT: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.AmpersandAmpersandToken,
  SyntaxKind.BarBarToken,
  SyntaxKind.QuestionQuestionToken,
  SyntaxKind.AmpersandAmpersandEqualsToken,
  SyntaxKind.BarBarEqualsToken,
  SyntaxKind.QuestionQuestionEqualsToken,
]);

function chainedOn(parent: Node, child: Node): boolean {
  return (
    (Node.isPropertyAccessExpression(parent) ||
      Node.isElementAccessExpression(parent) ||
      Node.isCallExpression(parent) ||
      Node.isNonNullExpression(parent)) &&
    parent.getExpression() === child
  );
}

/**
 * No code of anyone else's runs and no changeable state is read: operators (other than
 * assignment, `in`, `instanceof`), literals and reads of bindings nothing reassigns. A property
 * read is not quiet: the argument evaluated after it could change the property.
 */
function evaluatesQuietly(node: Node, earlier: ReadonlySet<Node>): boolean {
  const kind = node.getKind();
  // An operator's token: the expression it belongs to is judged on its own.
  if (kind >= SyntaxKind.FirstPunctuation && kind <= SyntaxKind.LastPunctuation) return true;
  if (Node.isIdentifier(node)) {
    const parent = node.getParent();
    if (Node.isPropertyAssignment(parent) && parent.getNameNode() === node) return true;
    return earlier.has(node) || neverReassigned(node);
  }
  if (Node.isBinaryExpression(node)) return !loudOperator(node.getOperatorToken().getKind());
  if (Node.isPrefixUnaryExpression(node))
    return (
      node.getOperatorToken() !== SyntaxKind.PlusPlusToken &&
      node.getOperatorToken() !== SyntaxKind.MinusMinusToken
    );
  return LITERALS.has(kind) || QUIET.has(kind);
}

function loudOperator(kind: SyntaxKind): boolean {
  const assignment = kind >= SyntaxKind.FirstAssignment && kind <= SyntaxKind.LastAssignment;
  return assignment || kind === SyntaxKind.InKeyword || kind === SyntaxKind.InstanceOfKeyword;
}

const QUIET: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.RegularExpressionLiteral,
  SyntaxKind.TemplateExpression,
  SyntaxKind.TemplateSpan,
  SyntaxKind.TemplateHead,
  SyntaxKind.TemplateMiddle,
  SyntaxKind.TemplateTail,
  SyntaxKind.ParenthesizedExpression,
  SyntaxKind.AsExpression,
  SyntaxKind.SatisfiesExpression,
  SyntaxKind.NonNullExpression,
  SyntaxKind.TypeAssertionExpression,
  SyntaxKind.ArrayLiteralExpression,
  SyntaxKind.ObjectLiteralExpression,
  SyntaxKind.PropertyAssignment,
  SyntaxKind.ShorthandPropertyAssignment,
  SyntaxKind.ConditionalExpression,
  SyntaxKind.TypeOfExpression,
  SyntaxKind.VoidExpression,
]);

/** A binding no assignment, update or destructuring anywhere in the project writes to. */
function neverReassigned(identifier: Identifier): boolean {
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
