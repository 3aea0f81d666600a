import { Node, SyntaxKind, VariableDeclarationKind } from 'ts-morph';
import { bindingNames } from './import-edits.js';

/**
 * The names declared in the scopes around `node` below the module: a free name of an inlined
 * body that one of these declares would mean something else at the call. By name, not by
 * symbol, to stay simple and err on the side of refusing.
 */
export function namesDeclaredAround(node: Node): Set<string> {
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
export function namesDeclaredWithin(node: Node): Set<string> {
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

/** The text of every identifier in `node`, itself included, except `skip`. */
export function identifierNames(node: Node, skip: ReadonlySet<Node> = new Set()): Set<string> {
  const identifiers = Node.isIdentifier(node)
    ? [node]
    : node.getDescendantsOfKind(SyntaxKind.Identifier);
  return new Set(identifiers.filter((id) => !skip.has(id)).map((id) => id.getText()));
}
