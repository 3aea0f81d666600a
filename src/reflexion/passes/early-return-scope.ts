import {
  type Block,
  type Identifier,
  Node,
  SyntaxKind,
  ts,
  VariableDeclarationKind,
} from 'ts-morph';
import { bindingNames } from './import-edits.js';

/**
 * Whether the declarations at the top of `inner` (an `else` block) can move up into `outer`
 * (the block holding the `if`) without meaning anything else. Moved up, a `const y` would clash
 * with a `y` declared in `outer` (or with a parameter, when `outer` is the function's body), or
 * capture the uses of an outer `y` throughout `outer`, the `if`'s own branch included (where it
 * would read `y` before its declaration). A function declaration would be hoisted further and
 * a `using` disposed of later, so those never move.
 */
export function canHoist(inner: Block, outer: Block): boolean {
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
