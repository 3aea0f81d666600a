import {
  type ArrowFunction,
  type Expression,
  type FunctionDeclaration,
  type Identifier,
  Node,
  type ParameterDeclaration,
  type SourceFile,
  SyntaxKind,
  ts,
  VariableDeclarationKind,
} from 'ts-morph';

/** A module-level function whose whole body is one expression: what may be inlined. */
export interface TrivialFunction {
  readonly name: Identifier;
  /** The function itself: the declaration, or the arrow a `const` holds. */
  readonly fn: FunctionDeclaration | ArrowFunction;
  /** The statement that goes away with it. */
  readonly statement: Node;
  readonly parameters: readonly ParameterDeclaration[];
  readonly body: Expression;
}

/** The file's trivial functions, in source order. */
export function trivialFunctions(file: SourceFile): TrivialFunction[] {
  const found: TrivialFunction[] = [];
  for (const statement of file.getStatements()) {
    if (Node.isFunctionDeclaration(statement)) {
      const trivial = trivialDeclaration(statement);
      if (trivial) found.push(trivial);
    } else if (Node.isVariableStatement(statement)) {
      if (
        statement.isExported() ||
        statement.getDeclarationKind() !== VariableDeclarationKind.Const
      )
        continue;
      for (const declaration of statement.getDeclarations()) {
        const name = declaration.getNameNode();
        const arrow = declaration.getInitializer();
        if (!Node.isIdentifier(name) || !Node.isArrowFunction(arrow)) continue;
        const body = singleExpression(arrow);
        if (body && simpleSignature(arrow))
          found.push({ name, fn: arrow, statement, parameters: arrow.getParameters(), body });
      }
    }
  }
  return found;
}

function trivialDeclaration(fn: FunctionDeclaration): TrivialFunction | undefined {
  const name = fn.getNameNode();
  // Overloads share the implementation's name: the signatures would be left without a body.
  if (!name || fn.isExported() || fn.isDefaultExport() || fn.getOverloads().length > 0) return;
  if (fn.isOverload() || fn.isGenerator() || !simpleSignature(fn)) return;
  const body = singleExpression(fn);
  return body && { name, fn, statement: fn, parameters: fn.getParameters(), body };
}

/** `return e;` as the only statement, or an arrow's expression body. */
function singleExpression(fn: FunctionDeclaration | ArrowFunction): Expression | undefined {
  const body = fn.getBody();
  if (Node.isExpression(body)) return body;
  if (!Node.isBlock(body)) return;
  const [only, ...rest] = body.getStatements();
  if (rest.length > 0 || !Node.isReturnStatement(only)) return;
  return only.getExpression();
}

/**
 * Plain positional parameters only: a default, rest, optional or destructured parameter does
 * work of its own at the call that the substituted expression would not do.
 */
function simpleSignature(fn: FunctionDeclaration | ArrowFunction): boolean {
  if (fn.isAsync() || fn.getTypeParameters().length > 0) return false;
  return fn
    .getParameters()
    .every(
      (parameter) =>
        Node.isIdentifier(parameter.getNameNode()) &&
        parameter.getName() !== 'this' &&
        !parameter.hasInitializer() &&
        !parameter.isRestParameter() &&
        !parameter.hasQuestionToken(),
    );
}

/** Syntax whose meaning depends on the function it is written in, not on where it is inlined. */
export function usesOwnContext(body: Expression): boolean {
  const ownContext = (node: Node): boolean =>
    node.getKind() === SyntaxKind.ThisKeyword ||
    node.getKind() === SyntaxKind.SuperKeyword ||
    Node.isMetaProperty(node) ||
    Node.isAwaitExpression(node) ||
    Node.isYieldExpression(node) ||
    (Node.isIdentifier(node) && node.getText() === 'arguments');
  return ownContext(body) || body.getFirstDescendant(ownContext) !== undefined;
}

/** A parameter's read in the body and the argument that takes its place. */
export interface Substitution {
  readonly read: Identifier;
  readonly arg: Expression;
}

/**
 * The body's text with every read replaced by its argument, to stand where `call` is: each
 * argument and the whole parenthesised unless they bind tightly enough already, the body's
 * own lines moved to the call's indentation (the arguments' lines are there already).
 */
export function inlinedText(
  body: Expression,
  substitutions: readonly Substitution[],
  call: Node,
): string {
  // A body that is just a parameter becomes the argument itself.
  const whole = substitutions.find(({ read }) => read === body);
  if (whole) return parenthesised(whole.arg, call);
  const source = body.getSourceFile().getFullText();
  const move = reindent(body, lineIndentOf(body), lineIndentOf(call));
  let text = '';
  let at = body.getStart();
  for (const { read, arg } of [...substitutions].sort(
    (a, b) => a.read.getStart() - b.read.getStart(),
  )) {
    const value = parenthesised(arg, read);
    const shorthand = Node.isShorthandPropertyAssignment(read.getParent());
    text += move(source.slice(at, read.getStart())) + (shorthand ? `${read.getText()}: ` : '');
    text += value;
    at = read.getEnd();
  }
  text += move(source.slice(at, body.getEnd()));
  return bare(body, call) ? text : `(${text})`;
}

function parenthesised(expression: Expression, replaced: Node): string {
  return bare(expression, replaced) ? expression.getText() : `(${expression.getText()})`;
}

/**
 * Whether `expression` can stand without parentheses where `replaced` is: identifiers,
 * literals, calls and member reads bind tighter than anything around them, except a number
 * before `.` (`1.toFixed()` does not parse), an optional chain, which would swallow what follows
 * it (`a?.b.c` short-circuits where `(a?.b).c` throws), and anything but a name after `new`
 * (`new make()()` constructs `make`).
 */
function bare(expression: Expression, replaced: Node): boolean {
  const parent = replaced.getParent();
  if (Node.isNewExpression(parent) && parent.getExpression() === replaced)
    return Node.isIdentifier(expression);
  if (ts.isOptionalChain(expression.compilerNode)) return false;
  if (Node.isNumericLiteral(expression))
    return !(Node.isPropertyAccessExpression(parent) && parent.getExpression() === replaced);
  return (
    Node.isIdentifier(expression) ||
    Node.isLiteralExpression(expression) ||
    Node.isNoSubstitutionTemplateLiteral(expression) ||
    BARE_KINDS.has(expression.getKind())
  );
}

const BARE_KINDS: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.TrueKeyword,
  SyntaxKind.FalseKeyword,
  SyntaxKind.NullKeyword,
  SyntaxKind.CallExpression,
  SyntaxKind.PropertyAccessExpression,
  SyntaxKind.ElementAccessExpression,
  SyntaxKind.ParenthesizedExpression,
  SyntaxKind.ArrayLiteralExpression,
  SyntaxKind.TemplateExpression,
]);

function lineIndentOf(node: Node): string {
  const text = node.getSourceFile().getFullText();
  const lineStart = text.lastIndexOf('\n', node.getStart() - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** Moves lines from one indentation to another; not inside a template, which it would change. */
function reindent(body: Expression, from: string, to: string): (text: string) => string {
  const multilineTemplate = (node: Node): boolean =>
    (Node.isNoSubstitutionTemplateLiteral(node) || Node.isTemplateExpression(node)) &&
    node.getText().includes('\n');
  if (from === to || multilineTemplate(body) || body.getFirstDescendant(multilineTemplate))
    return (text) => text;
  return (text) => text.split(`\n${from}`).join(`\n${to}`);
}
