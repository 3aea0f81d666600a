import {
  type FunctionDeclaration,
  type Identifier,
  type ImportDeclaration,
  Node,
  type ParameterDeclaration,
  type Statement,
  type TypeNode,
  VariableDeclarationKind,
  type VariableStatement,
} from 'ts-morph';

/** `function f(a, b) { return g(a, b); }` or `const f = (a, b) => g(a, b)`, top-level. */
export interface Wrapper {
  readonly statement: FunctionDeclaration | VariableStatement;
  readonly nameNode: Identifier;
  readonly parameters: readonly ParameterDeclaration[];
  readonly returnType: TypeNode | undefined;
  readonly callee: Identifier;
}

/** The function `g` a wrapper forwards to, and how the wrapper's file gets hold of it. */
export interface Callee {
  readonly declaration: FunctionDeclaration;
  /** The wrapper file's import of `g`; undefined when `g` is declared in that file. */
  readonly importDeclaration: ImportDeclaration | undefined;
}

export function matchWrapper(statement: Statement): Wrapper | undefined {
  if (Node.isFunctionDeclaration(statement)) return matchFunction(statement);
  if (Node.isVariableStatement(statement)) return matchArrow(statement);
  return undefined;
}

/** Async and generator functions wrap the result (and throws) in a promise or an iterator. */
function matchFunction(declaration: FunctionDeclaration): Wrapper | undefined {
  const nameNode = declaration.getNameNode();
  if (nameNode === undefined || declaration.getBody() === undefined) return undefined;
  if (declaration.isDefaultExport() || declaration.isAsync() || declaration.isGenerator())
    return undefined;
  if (declaration.getOverloads().length > 0 || declaration.getTypeParameters().length > 0)
    return undefined;
  const [only, ...more] = declaration.getStatements();
  if (!Node.isReturnStatement(only) || more.length > 0) return undefined;
  const returnType = declaration.getReturnTypeNode();
  return forwarding(
    declaration,
    nameNode,
    declaration.getParameters(),
    returnType,
    only.getExpression(),
  );
}

/** A typed `const` (`const f: Handler = …`) may be typed unlike `g`: left alone. */
function matchArrow(statement: VariableStatement): Wrapper | undefined {
  if (statement.getDeclarationKind() !== VariableDeclarationKind.Const) return undefined;
  if (statement.hasDeclareKeyword()) return undefined;
  const [declaration, ...more] = statement.getDeclarations();
  if (declaration === undefined || more.length > 0 || declaration.getTypeNode() !== undefined)
    return undefined;
  const nameNode = declaration.getNameNode();
  const arrow = declaration.getInitializer();
  if (!Node.isIdentifier(nameNode) || !Node.isArrowFunction(arrow) || arrow.isAsync())
    return undefined;
  if (arrow.getTypeParameters().length > 0) return undefined;
  const body = arrow.getBody();
  let forwarded: Node | undefined = body;
  if (Node.isBlock(body)) {
    const [only, ...others] = body.getStatements();
    forwarded =
      Node.isReturnStatement(only) && others.length === 0 ? only.getExpression() : undefined;
  }
  return forwarding(
    statement,
    nameNode,
    arrow.getParameters(),
    arrow.getReturnTypeNode(),
    forwarded,
  );
}

/** The body is `g(a, b)`: a plain call, each parameter passed as it came, in order. */
function forwarding(
  statement: FunctionDeclaration | VariableStatement,
  nameNode: Identifier,
  parameters: ParameterDeclaration[],
  returnType: TypeNode | undefined,
  forwarded: Node | undefined,
): Wrapper | undefined {
  if (!Node.isCallExpression(forwarded) || forwarded.getTypeArguments().length > 0)
    return undefined;
  const callee = forwarded.getExpression();
  if (!Node.isIdentifier(callee) || forwarded.hasQuestionDotToken()) return undefined;
  const args = forwarded.getArguments();
  if (args.length !== parameters.length) return undefined;
  const passedAsIs = parameters.every((parameter, index) => {
    const name = parameter.getNameNode();
    const plain =
      Node.isIdentifier(name) &&
      name.getText() !== 'this' &&
      !parameter.hasInitializer() &&
      !parameter.isRestParameter() &&
      parameter.getDecorators().length === 0;
    const arg = args[index];
    return plain && Node.isIdentifier(arg) && arg.getText() === name.getText();
  });
  if (!passedAsIs) return undefined;
  return { statement, nameNode, parameters, returnType, callee };
}

/**
 * The callee when it is one function declaration, declared at the top of the wrapper's file or
 * imported by name; undefined for a method, a variable, an overloaded or aliased function.
 */
export function resolveCallee(wrapper: Wrapper): Callee | undefined {
  const symbol = wrapper.callee.getSymbol();
  if (symbol === undefined) return undefined;
  let target = symbol;
  let importDeclaration: ImportDeclaration | undefined;
  if (symbol.isAlias()) {
    const [specifier, ...more] = symbol.getDeclarations();
    if (!Node.isImportSpecifier(specifier) || more.length > 0) return undefined;
    if (specifier.getAliasNode() !== undefined || specifier.isTypeOnly()) return undefined;
    importDeclaration = specifier.getImportDeclaration();
    const aliased = symbol.getAliasedSymbol();
    if (importDeclaration.isTypeOnly() || aliased === undefined) return undefined;
    target = aliased;
  }
  const [declaration, ...more] = target.getDeclarations();
  if (!Node.isFunctionDeclaration(declaration) || more.length > 0) return undefined;
  if (declaration === wrapper.statement) return undefined;
  if (importDeclaration === undefined) {
    const local = declaration.getSourceFile() === wrapper.statement.getSourceFile();
    if (!local || !Node.isSourceFile(declaration.getParent())) return undefined;
  }
  return { declaration, importDeclaration };
}

/**
 * The wrapper declares no type that `g` does not declare the same way (text for text): then
 * callers see the same signature, whatever `g` is.
 */
export function declaresSameTypes(wrapper: Wrapper, callee: Callee): boolean {
  const calleeParameters = callee.declaration.getParameters();
  const parametersMatch = wrapper.parameters.every((parameter, index) => {
    const declared = parameter.getTypeNode()?.getText();
    return declared === undefined || declared === calleeParameters[index]?.getTypeNode()?.getText();
  });
  const returned = wrapper.returnType?.getText();
  const calleeReturned = callee.declaration.getReturnTypeNode()?.getText();
  return parametersMatch && (returned === undefined || returned === calleeReturned);
}
