import {
  type CallExpression,
  type Expression,
  type Identifier,
  Node,
  SyntaxKind,
  VariableDeclarationKind,
} from 'ts-morph';
import {
  captureEdits,
  type PassContext,
  type Proposal,
  relativePath,
  type SimplificationPass,
  scopedFiles,
} from '../proposal.js';
import {
  bindingNames,
  dropImportsLeftUnused,
  identifierNames,
  importsNamedIn,
} from './import-edits.js';
import {
  evaluatesAsBefore,
  isConstantArgument,
  parameterReads,
} from './inline-trivial-function-order.js';
import {
  inlinedText,
  type Substitution,
  type TrivialFunction,
  trivialFunctions,
  usesOwnContext,
} from './inline-trivial-function-shape.js';

/** What to do, as plain data: nodes go stale once any proposal has been captured. */
interface Inlining {
  readonly filePath: string;
  readonly name: string;
  readonly line: number;
  readonly call: readonly [number, number];
  readonly replacement: string;
  /** Imports the declaration names, which may go with it. */
  readonly imports: readonly string[];
}

/**
 * Inlines a module-private function whose body is one expression into its only call, then
 * deletes it: one name and one indirection fewer for a reader to follow. Methods are left
 * alone: inlining a method called through `this` would bypass overriding (dynamic dispatch).
 */
export const inlineTrivialFunctionPass: SimplificationPass = {
  name: 'inline-trivial-function',
  level: 'balanced',
  find(context) {
    const inlinings = scopedFiles(context)
      .filter((file) => !file.isDeclarationFile())
      .flatMap((file) => trivialFunctions(file).flatMap((fn) => inlining(fn) ?? []));
    return inlinings
      .map((plan) => proposal(context, plan))
      .filter((proposal) => proposal.edits.length > 0)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  },
};

function proposal(context: PassContext, plan: Inlining): Proposal {
  const edits = captureEdits(context, () => {
    const file = context.project.getSourceFileOrThrow(plan.filePath);
    file.replaceText([...plan.call], plan.replacement);
    const declaration = file.getFunction(plan.name) ?? file.getVariableDeclaration(plan.name);
    declaration?.remove();
    dropImportsLeftUnused(file, plan.imports);
  });
  return {
    pass: 'inline-trivial-function',
    title: `Inline \`${plan.name}\` into its only caller`,
    path: relativePath(context, plan.filePath),
    line: plan.line,
    edits,
  };
}

function inlining(fn: TrivialFunction): Inlining | undefined {
  if (usesOwnContext(fn.body)) return;
  const [use, ...others] = fn.name.findReferencesAsNodes();
  const call = use?.getParent();
  if (others.length > 0 || !Node.isCallExpression(call) || call.getExpression() !== use) return;
  const file = fn.name.getSourceFile();
  if (call.getSourceFile() !== file || !plainCall(call, fn)) return;
  const replacement = substitution(fn, call);
  if (replacement === undefined || startsStatementAmbiguously(call, replacement)) return;
  return {
    filePath: file.getFilePath(),
    name: fn.name.getText(),
    line: fn.statement.getStartLineNumber(),
    call: [call.getStart(), call.getEnd()],
    replacement,
    imports: importsNamedIn(fn.statement),
  };
}

/** `f(a, b)` with one argument per parameter, outside `f` itself, its result not called. */
function plainCall(call: CallExpression, fn: TrivialFunction): boolean {
  if (call.hasQuestionDotToken() || call.getTypeArguments().length > 0) return false;
  if (fn.fn.containsRange(call.getPos(), call.getEnd()) || isCallee(call)) return false;
  const args = call.getArguments();
  return args.length === fn.parameters.length && !args.some(Node.isSpreadElement);
}

/** The body with each parameter replaced by its argument; undefined when that is unsafe. */
function substitution(fn: TrivialFunction, call: CallExpression): string | undefined {
  const args = call.getArguments().filter(Node.isExpression);
  const replacements: Substitution[] = [];
  const constantReads = new Set<Node>();
  const onceReads: Identifier[] = [];
  for (const [index, parameter] of fn.parameters.entries()) {
    const arg = args[index];
    const reads = parameterReads(parameter, fn.body);
    if (!arg || !reads) return;
    if (isConstantArgument(arg)) for (const read of reads) constantReads.add(read);
    else if (reads.length !== 1) return;
    else onceReads.push(...reads);
    for (const read of reads) {
      if (isCallee(read) && isAccess(arg)) return;
      replacements.push({ read, arg });
    }
  }
  if (!evaluatesAsBefore(fn.body, onceReads, constantReads)) return;
  const reads = new Set<Node>(replacements.map(({ read }) => read));
  const around = namesDeclaredAround(call);
  if ([...identifierNames(fn.body, reads)].some((name) => around.has(name))) return;
  const within = namesDeclaredWithin(fn.body);
  if (args.some((arg) => [...identifierNames(arg)].some((name) => within.has(name)))) return;
  return inlinedText(fn.body, replacements, call);
}

/** Called as a function: `this` would become the object an access reads from. */
function isCallee(node: Node): boolean {
  const parent = node.getParent();
  return (
    (Node.isCallExpression(parent) && parent.getExpression() === node) ||
    (Node.isTaggedTemplateExpression(parent) && parent.getTag() === node)
  );
}

function isAccess(expression: Expression): boolean {
  let inner: Node = expression;
  while (Node.isParenthesizedExpression(inner)) inner = inner.getExpression();
  return Node.isPropertyAccessExpression(inner) || Node.isElementAccessExpression(inner);
}

/** A statement starting with `(`, `[` or a template would continue the previous line without `;`. */
function startsStatementAmbiguously(call: CallExpression, replacement: string): boolean {
  const statement = call.getFirstAncestorByKind(SyntaxKind.ExpressionStatement);
  return statement?.getStart() === call.getStart() && /^[([`]/.test(replacement);
}

/**
 * The names declared in the scopes around `node` below the module: a free name of an inlined
 * body that one of these declares would mean something else at the call. By name, not by
 * symbol, to stay simple and err on the side of refusing.
 */
function namesDeclaredAround(node: Node): Set<string> {
  const names = new Set<string>();
  for (let scope = node.getParent(); scope && !Node.isSourceFile(scope); scope = scope.getParent())
    for (const name of namesDeclaredBy(scope)) names.add(name);
  return names;
}

function namesDeclaredBy(scope: Node): string[] {
  if (Node.isFunctionLikeDeclaration(scope) || Node.isFunctionExpression(scope)) {
    const hoisted = scope
      .getDescendantsOfKind(SyntaxKind.VariableDeclarationList)
      .filter((list) => list.getDeclarationKind() === VariableDeclarationKind.Var)
      .flatMap((list) => list.getDeclarations().flatMap((d) => bindingNames(d.getNameNode())));
    return [
      ...(Node.isFunctionExpression(scope) ? [scope.getName() ?? ''] : []),
      ...scope.getParameters().flatMap((parameter) => bindingNames(parameter.getNameNode())),
      ...scope.getTypeParameters().map((parameter) => parameter.getName()),
      ...hoisted,
    ];
  }
  if (Node.isStatemented(scope)) return scope.getStatements().flatMap(statementNames);
  if (Node.isCaseBlock(scope))
    return scope.getClauses().flatMap((clause) => clause.getStatements().flatMap(statementNames));
  if (Node.isForStatement(scope) || Node.isForInStatement(scope) || Node.isForOfStatement(scope)) {
    const initializer = scope.getInitializer();
    return Node.isVariableDeclarationList(initializer) ? listNames(initializer) : [];
  }
  if (Node.isCatchClause(scope)) {
    const variable = scope.getVariableDeclaration();
    return variable ? bindingNames(variable.getNameNode()) : [];
  }
  if (Node.isClassDeclaration(scope) || Node.isClassExpression(scope))
    return [
      ...(Node.isClassExpression(scope) ? [scope.getName() ?? ''] : []),
      ...scope.getTypeParameters().map((parameter) => parameter.getName()),
    ];
  return [];
}

function statementNames(statement: Node): string[] {
  if (Node.isVariableStatement(statement)) return listNames(statement.getDeclarationList());
  if (
    Node.isFunctionDeclaration(statement) ||
    Node.isClassDeclaration(statement) ||
    Node.isEnumDeclaration(statement) ||
    Node.isInterfaceDeclaration(statement) ||
    Node.isTypeAliasDeclaration(statement) ||
    Node.isModuleDeclaration(statement)
  )
    return [statement.getName() ?? ''];
  return [];
}

function listNames(list: Node): string[] {
  return Node.isVariableDeclarationList(list)
    ? list.getDeclarations().flatMap((declaration) => bindingNames(declaration.getNameNode()))
    : [];
}

/**
 * Every name declared inside `node` (nested functions' parameters, locals, classes): an
 * argument naming one of them would be captured once substituted into the body.
 */
function namesDeclaredWithin(node: Node): Set<string> {
  const names = new Set<string>();
  node.forEachDescendant((descendant) => {
    if (
      Node.isParameterDeclaration(descendant) ||
      Node.isVariableDeclaration(descendant) ||
      Node.isBindingElement(descendant)
    ) {
      const name = descendant.getNameNode();
      if (Node.isIdentifier(name)) names.add(name.getText());
    } else if (
      Node.isFunctionExpression(descendant) ||
      Node.isClassExpression(descendant) ||
      Node.isFunctionDeclaration(descendant) ||
      Node.isClassDeclaration(descendant) ||
      Node.isTypeParameterDeclaration(descendant)
    )
      names.add(descendant.getName() ?? '');
  });
  return names;
}
