import type { FunctionDeclaration, VariableStatement } from 'ts-morph';
import { type Identifier, Node, type SourceFile, ts } from 'ts-morph';
import type { PassContext, Proposal, SimplificationPass } from '../proposal.js';
import { captureEdits, relativePath, scopedFiles } from '../proposal.js';
import { isPublic, type PublicApi } from '../public-api/public-api.js';
import {
  canonicalSymbol,
  ensureNamedImport,
  identifierNames,
  importOfName,
  isInJsDoc,
  isReExportedWholesale,
  moduleSpecifier,
  namedImportsOf,
  removeImportsLeftUnused,
  removeImportsOf,
  symbolNamedInScope,
} from './import-edits.js';
import {
  type Callee,
  declaresSameTypes,
  matchWrapper,
  resolveCallee,
  type Wrapper,
} from './pass-through-wrapper-match.js';
import { removeStatement, renameAt } from './text-edits.js';
import { isWithin } from './unused-code-references.js';

/**
 * A function whose whole body hands its parameters, unchanged and in order, to another function
 * (`function fetchUser(id) { return loadUser(id); }`) is a second name for it: callers call the
 * other function directly and the wrapper goes. Functions only: a class forwarding to an
 * object's method changes `this`, which is a different simplification.
 */
export const passThroughWrapperPass: SimplificationPass = {
  name: 'pass-through-wrapper',
  level: 'balanced',
  find(context) {
    const replacements: Replacement[] = [];
    for (const file of scopedFiles(context)) {
      if (file.isDeclarationFile()) continue;
      for (const statement of file.getStatements()) {
        const wrapper = matchWrapper(statement);
        const replacement =
          wrapper === undefined ? undefined : planReplacement(wrapper, context.publicApi);
        if (replacement !== undefined) replacements.push(replacement);
      }
    }
    return replacements
      .map((replacement) => proposal(context, replacement))
      .filter((found) => found.edits.length > 0)
      .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  },
};

function proposal(context: PassContext, replacement: Replacement): Proposal {
  return {
    pass: 'pass-through-wrapper',
    title: `Replace pass-through \`${replacement.name}\` with \`${replacement.calleeName}\``,
    path: relativePath(context, replacement.path),
    line: replacement.line,
    edits: captureEdits(context, () => apply(context, replacement)),
  };
}

/** Runs on the project as the plan saw it: every node is found again from paths and names. */
function apply(context: PassContext, replacement: Replacement): void {
  const { project } = context;
  const { name, calleeName } = replacement;
  renameAt(project, replacement.renames, name, calleeName);
  const wrapperFile = project.getSourceFileOrThrow(replacement.path);
  for (const [path, calleeImport] of replacement.imports) {
    const file = project.getSourceFileOrThrow(path);
    const module =
      calleeImport.path === undefined ? undefined : project.getSourceFile(calleeImport.path);
    const target = { file: module, specifier: calleeImport.specifier };
    ensureNamedImport(file, calleeName, target, false, importOfName(file, name, wrapperFile));
  }
  removeImportsOf(project, name, replacement.path);
  const declaration = wrapperDeclaration(wrapperFile, name);
  const mentioned = identifierNames(declaration);
  removeStatement(declaration);
  // The wrapper may have been the file's last user of `g`'s import, or of a parameter's type.
  removeImportsLeftUnused(wrapperFile, mentioned);
}

function wrapperDeclaration(
  file: SourceFile,
  name: string,
): FunctionDeclaration | VariableStatement {
  const declaration =
    file.getFunction(name) ??
    file.getVariableStatement((statement) =>
      statement.getDeclarations().some((variable) => variable.getName() === name),
    );
  if (declaration === undefined) throw new Error(`${name} is gone from ${file.getFilePath()}`);
  return declaration;
}

/** Where a file that now calls `g` imports it from: a project file's path, or a package. */
interface CalleeImport {
  readonly path: string | undefined;
  readonly specifier: string;
}

/** What replacing one wrapper takes, as plain data: nodes go stale once the project is edited. */
interface Replacement {
  readonly path: string;
  readonly name: string;
  readonly calleeName: string;
  readonly line: number;
  /** Absolute file path → start of each reference to `f` that becomes `g`. */
  readonly renames: ReadonlyMap<string, readonly number[]>;
  /** Absolute file path → the import of `g` that file needs. */
  readonly imports: ReadonlyMap<string, CalleeImport>;
}

/**
 * The replacement of `wrapper` by its callee, or undefined when it is not provably the same or
 * the wrapper is public API (its users outside would lose the name).
 */
function planReplacement(wrapper: Wrapper, publicApi: PublicApi): Replacement | undefined {
  const file = wrapper.statement.getSourceFile();
  const exported = wrapper.statement.isExported();
  const name = wrapper.nameNode.getText();
  if (exported && (isPublic(publicApi, file.getFilePath(), name) || isReExportedWholesale(file)))
    return undefined;
  const callee = resolveCallee(wrapper);
  if (callee === undefined || !declaresSameTypes(wrapper, callee)) return undefined;
  const references = renamedReferences(wrapper, callee);
  if (references === undefined) return undefined;
  const imports = importsNeeded(wrapper, callee, references);
  if (imports === undefined) return undefined;
  const renames = new Map<string, number[]>();
  for (const reference of references) {
    const path = reference.getSourceFile().getFilePath();
    renames.set(path, [...(renames.get(path) ?? []), reference.getStart()]);
  }
  return {
    path: file.getFilePath(),
    name: wrapper.nameNode.getText(),
    calleeName: wrapper.callee.getText(),
    line: wrapper.statement.getStartLineNumber(),
    renames,
    imports,
  };
}

/**
 * The references to `f` outside its imports, all calls with f's number of arguments or plain
 * references; undefined for any other use (`f.name`, `typeof f`, `new f`, `{ f }`, a re-export,
 * an aliased import, one inside `f` itself).
 */
function renamedReferences(wrapper: Wrapper, callee: Callee): Identifier[] | undefined {
  const references: Identifier[] = [];
  const file = wrapper.statement.getSourceFile();
  for (const reference of wrapper.nameNode.findReferencesAsNodes()) {
    if (reference === wrapper.nameNode) continue;
    if (!Node.isIdentifier(reference) || isInJsDoc(reference)) return undefined;
    if (reference.getSourceFile() === file && isWithin(reference, wrapper.statement))
      return undefined;
    const parent = reference.getParent();
    if (Node.isImportSpecifier(parent)) {
      if (parent.getAliasNode() !== undefined) return undefined;
      if (parent.getImportDeclaration().getModuleSpecifierSourceFile() !== file) return undefined;
      continue;
    }
    const call = Node.isCallExpression(parent) && parent.getExpression() === reference;
    if (call ? !callsLikeWrapper(parent, wrapper) : !isPlainReference(reference, wrapper, callee))
      return undefined;
    references.push(reference);
  }
  return references;
}

/** `f(x, y)` with as many arguments as `f` has parameters, none spread: `g` gets the same. */
function callsLikeWrapper(call: Node, wrapper: Wrapper): boolean {
  if (!Node.isCallExpression(call) || call.getTypeArguments().length > 0) return false;
  const args = call.getArguments();
  return args.length === wrapper.parameters.length && !args.some(Node.isSpreadElement);
}

/**
 * `f` handed over as a value (`list.map(f)`, `{ onClick: f }`): whoever calls it may pass any
 * arguments and any `this`, so `g` must take exactly f's parameters (no default, no rest, the
 * same `length`) and read neither `arguments` nor `this`.
 */
function isPlainReference(reference: Identifier, wrapper: Wrapper, callee: Callee): boolean {
  const parent = reference.getParent();
  const handedOver =
    ((Node.isCallExpression(parent) || Node.isNewExpression(parent)) &&
      parent.getArguments().includes(reference)) ||
    ((Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent)) &&
      parent.getInitializer() === reference) ||
    Node.isReturnStatement(parent) ||
    Node.isArrayLiteralExpression(parent) ||
    (Node.isArrowFunction(parent) && parent.getBody() === reference);
  if (!handedOver) return false;
  const body = callee.declaration.getBody();
  const parameters = callee.declaration.getParameters();
  if (body === undefined || parameters.length !== wrapper.parameters.length) return false;
  if (parameters.some((p) => p.hasInitializer() || p.isRestParameter())) return false;
  if (body.getDescendantsOfKind(ts.SyntaxKind.ThisKeyword).length > 0) return false;
  return !body
    .getDescendantsOfKind(ts.SyntaxKind.Identifier)
    .some((id) => id.getText() === 'arguments');
}

/**
 * The files that must import `g`, and from where; undefined when `g` would be a different thing
 * somewhere (another `g` in scope) or cannot be imported (not exported, default, aliased).
 */
function importsNeeded(
  wrapper: Wrapper,
  callee: Callee,
  references: readonly Identifier[],
): Map<string, CalleeImport> | undefined {
  const calleeName = wrapper.callee.getText();
  const calleeSymbol = wrapper.callee.getSymbol();
  if (calleeSymbol === undefined) return undefined;
  const wrapperFile = wrapper.statement.getSourceFile();
  const imports = new Map<string, CalleeImport>();
  for (const file of new Set(references.map((reference) => reference.getSourceFile()))) {
    let needsImport = false;
    for (const reference of references.filter((r) => r.getSourceFile() === file)) {
      const inScope = symbolNamedInScope(reference, calleeName);
      if (inScope === undefined) needsImport = true;
      else if (canonicalSymbol(inScope) !== canonicalSymbol(calleeSymbol)) return undefined;
    }
    if (!needsImport) continue;
    if (file === wrapperFile) return undefined;
    const like = namedImportsOf(file, wrapper.nameNode.getText(), wrapperFile)[0];
    if (like === undefined) return undefined;
    const calleeImport = importOf(
      callee,
      file,
      wrapperFile,
      like.getImportDeclaration().getModuleSpecifierValue(),
    );
    if (calleeImport === undefined) return undefined;
    imports.set(file.getFilePath(), calleeImport);
  }
  return imports;
}

/** Where `file` imports `g` from: where the wrapper's file does, or the wrapper's file itself. */
function importOf(
  callee: Callee,
  file: SourceFile,
  wrapperFile: SourceFile,
  like: string,
): CalleeImport | undefined {
  const { declaration, importDeclaration } = callee;
  if (importDeclaration === undefined) {
    if (!declaration.hasExportKeyword() || declaration.isDefaultExport()) return undefined;
    return { path: wrapperFile.getFilePath(), specifier: moduleSpecifier(file, wrapperFile, like) };
  }
  const module = importDeclaration.getModuleSpecifierSourceFile();
  if (!importDeclaration.isModuleSpecifierRelative()) {
    // A package (or a path alias): the same specifier means the same module from any file.
    return { path: module?.getFilePath(), specifier: importDeclaration.getModuleSpecifierValue() };
  }
  if (module === undefined) return undefined;
  return { path: module.getFilePath(), specifier: moduleSpecifier(file, module, like) };
}
