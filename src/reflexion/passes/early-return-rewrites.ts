import {
  type Block,
  type Identifier,
  type IfStatement,
  Node,
  type Statement,
  SyntaxKind,
  ts,
  VariableDeclarationKind,
} from 'ts-morph';
import { bindingNames } from './import-edits.js';
import {
  andOperand,
  holdsComment,
  lineBreak,
  lineIndent,
  reindented,
  type TextEdit,
} from './text-edits.js';

/** The first simplification that applies to `statement`, as an edit of its file's text. */
export function rewrite(statement: IfStatement): TextEdit | undefined {
  return booleanReturn(statement) ?? needlessElse(statement) ?? nestedIfs(statement);
}

/**
 * `if (c) return true; else return false;` (or `… return false;` as the next statement) is
 * `return c;` when `c` is already a boolean: one branch fewer.
 */
function booleanReturn(statement: IfStatement): TextEdit | undefined {
  const condition = statement.getExpression();
  if (!returnsLiteral(statement.getThenStatement(), SyntaxKind.TrueKeyword)) return;
  const otherwise = statement.getElseStatement() ?? nextStatement(statement);
  if (!otherwise || !returnsLiteral(otherwise, SyntaxKind.FalseKeyword)) return;
  const type = condition.getType();
  if (!type.isBoolean() && !type.isBooleanLiteral()) return;
  const text = statement.getSourceFile().getFullText();
  const end = otherwise.getEnd();
  const dropped =
    text.slice(statement.getStart(), condition.getStart()) + text.slice(condition.getEnd(), end);
  if (holdsComment(dropped)) return;
  return { start: statement.getStart(), end, text: `return ${condition.getText()};` };
}

function returnsLiteral(statement: Statement, literal: SyntaxKind): boolean {
  let only: Node | undefined = statement;
  if (Node.isBlock(statement)) {
    const statements = statement.getStatements();
    only = statements.length === 1 ? statements[0] : undefined;
  }
  return Node.isReturnStatement(only) && only.getExpression()?.getKind() === literal;
}

function nextStatement(statement: IfStatement): Statement | undefined {
  const block = statement.getParent();
  if (!Node.isBlock(block)) return;
  const statements = block.getStatements();
  return statements[statements.indexOf(statement) + 1];
}

/**
 * `if (c) { …; return x; } else { B }` is `if (c) { …; return x; } B`: the `else` adds a level
 * of nesting and nothing else, since the first branch never falls through.
 */
function needlessElse(statement: IfStatement): TextEdit | undefined {
  const otherwise = statement.getElseStatement();
  const then = statement.getThenStatement();
  const block = statement.getParent();
  const indent = lineIndent(statement);
  if (!otherwise || !Node.isBlock(block) || !alwaysExits(then) || indent === undefined) return;
  const text = statement.getSourceFile().getFullText();
  const head = text.slice(statement.getStart(), then.getEnd());
  const edit = (dropped: string, moved: string | undefined): TextEdit | undefined => {
    if (moved === undefined || holdsComment(dropped)) return;
    const tail = moved === '' ? '' : lineBreak(statement) + indent + moved;
    return { start: statement.getStart(), end: statement.getEnd(), text: head + tail };
  };
  if (!Node.isBlock(otherwise)) {
    // `else return x;` is no deeper than `return x;`; an `else if` is worth splitting off only
    // on the way to a last `else { … }` that can then move up. (It is indented as the `if` is.)
    if (!Node.isIfStatement(otherwise) || !endsInNeedlessBlock(otherwise)) return;
    return edit(text.slice(then.getEnd(), otherwise.getStart()), otherwise.getText());
  }
  if (!canHoist(otherwise, block)) return;
  const statements = otherwise.getStatements();
  const first = statements[0];
  const last = statements.at(-1);
  if (!first || !last) return edit(text.slice(then.getEnd(), statement.getEnd()), '');
  const from = lineIndent(first);
  const moved =
    from === undefined && first.getStartLineNumber() !== last.getEndLineNumber()
      ? undefined
      : reindented(first, last, from ?? '', indent);
  const dropped =
    text.slice(then.getEnd(), first.getStart()) + text.slice(last.getEnd(), otherwise.getEnd());
  return edit(dropped, moved);
}

/** An `if … else if … else { … }` chain each of whose branches but the last always exits. */
function endsInNeedlessBlock(statement: IfStatement): boolean {
  const otherwise = statement.getElseStatement();
  if (!otherwise || !alwaysExits(statement.getThenStatement())) return false;
  if (Node.isBlock(otherwise)) return otherwise.getStatements().length > 0;
  return Node.isIfStatement(otherwise) && endsInNeedlessBlock(otherwise);
}

/** Whether running `statement` always ends in `return` or `throw`. */
function alwaysExits(statement: Node): boolean {
  if (Node.isReturnStatement(statement) || Node.isThrowStatement(statement)) return true;
  if (Node.isBlock(statement)) {
    const last = statement.getStatements().at(-1);
    return last !== undefined && alwaysExits(last);
  }
  if (Node.isIfStatement(statement)) {
    const otherwise = statement.getElseStatement();
    return (
      otherwise !== undefined && alwaysExits(statement.getThenStatement()) && alwaysExits(otherwise)
    );
  }
  return false;
}

/** `if (a) { if (b) { S } }`, neither with an `else`, is `if (a && b) { S }`: one level less. */
function nestedIfs(outer: IfStatement): TextEdit | undefined {
  if (outer.getElseStatement()) return;
  const then = outer.getThenStatement();
  const statements = Node.isBlock(then) ? then.getStatements() : [then];
  const inner = statements[0];
  if (statements.length !== 1 || !Node.isIfStatement(inner) || inner.getElseStatement()) return;
  const a = outer.getExpression();
  const b = inner.getExpression();
  const body = inner.getThenStatement();
  const text = outer.getSourceFile().getFullText();
  const dropped = [
    text.slice(outer.getStart(), a.getStart()),
    text.slice(a.getEnd(), b.getStart()),
    text.slice(b.getEnd(), body.getStart()),
    text.slice(body.getEnd(), outer.getEnd()),
  ].join('');
  if (holdsComment(dropped)) return;
  const from = lineIndent(inner);
  const to = lineIndent(outer);
  const moved =
    from === undefined || to === undefined
      ? body.getText().includes('\n')
        ? undefined
        : body.getText()
      : reindented(body, body, from, to);
  if (moved === undefined) return;
  return {
    start: outer.getStart(),
    end: outer.getEnd(),
    text: `if (${andOperand(a)} && ${andOperand(b)}) ${moved}`,
  };
}

/**
 * Whether the declarations at the top of `inner` (an `else` block) can move up into `outer`
 * (the block holding the `if`) without meaning anything else. Moved up, a `const y` would clash
 * with a `y` declared in `outer` (or with a parameter, when `outer` is the function's body), or
 * capture the uses of an outer `y` throughout `outer`, the `if`'s own branch included (where it
 * would read `y` before its declaration). A function declaration would be hoisted further and
 * a `using` disposed of later, so those never move.
 */
function canHoist(inner: Block, outer: Block): boolean {
  const names = new Set<string>();
  for (const statement of inner.getStatements()) {
    if (Node.isFunctionDeclaration(statement)) return false;
    if (Node.isVariableStatement(statement)) {
      const kind = statement.getDeclarationKind();
      if (kind === VariableDeclarationKind.Using || kind === VariableDeclarationKind.AwaitUsing)
        return false;
      for (const declaration of statement.getDeclarations())
        for (const name of bindingNames(declaration.getNameNode())) names.add(name);
    } else if (
      Node.isClassDeclaration(statement) ||
      Node.isEnumDeclaration(statement) ||
      Node.isInterfaceDeclaration(statement) ||
      Node.isTypeAliasDeclaration(statement)
    ) {
      names.add(statement.getName() ?? '');
    }
  }
  if (names.size === 0) return true;
  const fn = outer.getParent();
  if (Node.isFunctionLikeDeclaration(fn) || Node.isFunctionExpression(fn))
    for (const parameter of fn.getParameters())
      if (bindingNames(parameter.getNameNode()).some((name) => names.has(name))) return false;
  return outer
    .getDescendantsOfKind(SyntaxKind.Identifier)
    .filter((id) => names.has(id.getText()) && !inner.containsRange(id.getPos(), id.getEnd()))
    .every((id) => unaffected(id, outer));
}

/**
 * A name that is a property (which no variable can capture), or that a nested scope inside
 * `outer` declares for itself (as the `if`'s own branch may).
 */
function unaffected(id: Identifier, outer: Block): boolean {
  const parent = id.getParent();
  const symbol = Node.isShorthandPropertyAssignment(parent)
    ? parent.getValueSymbol()
    : id.getSymbol();
  if (!symbol) return false;
  if ((symbol.getFlags() & MEMBERS) !== 0 && !Node.isShorthandPropertyAssignment(parent))
    return true;
  const declarations = symbol.getDeclarations();
  return (
    declarations.length > 0 &&
    declarations.every((declaration) => {
      if (!outer.containsRange(declaration.getPos(), declaration.getEnd())) return false;
      const list = declaration.getParent();
      if (
        Node.isVariableDeclarationList(list) &&
        list.getDeclarationKind() === VariableDeclarationKind.Var
      )
        return false;
      return scopeOf(declaration) !== outer;
    })
  );
}

const MEMBERS =
  ts.SymbolFlags.Property |
  ts.SymbolFlags.Method |
  ts.SymbolFlags.GetAccessor |
  ts.SymbolFlags.SetAccessor |
  ts.SymbolFlags.EnumMember;

/** The innermost block, function, loop head, catch or class a declaration belongs to. */
function scopeOf(declaration: Node): Node | undefined {
  return (
    declaration.getParentWhile((node) => !SCOPES.has(node.getKind()))?.getParent() ??
    declaration.getParent()
  );
}

const SCOPES: ReadonlySet<SyntaxKind> = new Set([
  SyntaxKind.Block,
  SyntaxKind.CaseBlock,
  SyntaxKind.ForStatement,
  SyntaxKind.ForInStatement,
  SyntaxKind.ForOfStatement,
  SyntaxKind.CatchClause,
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
  SyntaxKind.ClassDeclaration,
  SyntaxKind.ClassExpression,
  SyntaxKind.ModuleBlock,
  SyntaxKind.SourceFile,
]);
