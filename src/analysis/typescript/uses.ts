import type * as ts from 'typescript';
import type { ImportEmit } from '../import-uses.js';
import { typescript } from '../typescript-runtime.js';
import { hasModifier, type Source, startOf, textOf } from './syntax.js';

/**
 * How the file uses what its top-level imports bind. The rules (the same in both extractors,
 * each over its own tree; the oracle test holds them to `ts.transpileModule`):
 * - an import is kept when one of the names it binds as a value (not marked `type`) is
 *   referenced in a value position outside the range of a local declaration of that name
 *   (variable, parameter, function, class, enum, catch binding);
 * - a value position is anything but a type (`typeof a` in a type included), an `implements`
 *   clause or an interface's `extends`, and anything under `declare`; a computed key in a type
 *   is a value; a class's `extends` is a value; a local `export { a }` uses `a`;
 * - a JSX element or fragment uses the JSX factory's first name (ImportFact.keptWhen);
 * - a type named in decorator metadata (recordClassMetadata) keeps the import under
 *   `emitDecoratorMetadata`, local declarations notwithstanding.
 */

const K = typescript.SyntaxKind;

/** Before the walk: the names the top-level imports bind as values, which the walk watches. */
export function watchImportedNames(source: Source, statements: readonly ts.Statement[]): void {
  const { uses } = source.facts;
  for (const statement of statements) {
    const emit = typescript.isImportDeclaration(statement)
      ? importEmit(source, statement)
      : typescript.isImportEqualsDeclaration(statement)
        ? importEqualsEmit(source, statement)
        : 'never';
    if (typeof emit === 'object') for (const name of emit.values) uses.watch(name);
  }
}

export function importEmit(source: Source, node: ts.ImportDeclaration): ImportEmit {
  const clause = node.importClause;
  if (!isTopLevel(node) || clause?.isTypeOnly === true) return 'never';
  if (clause === undefined) return 'always';
  const values: string[] = [];
  if (clause.name !== undefined) values.push(textOf(source, clause.name));
  const named = clause.namedBindings;
  if (named !== undefined && typescript.isNamespaceImport(named)) {
    values.push(textOf(source, named.name));
  } else if (named !== undefined) {
    for (const element of named.elements)
      if (!element.isTypeOnly) values.push(textOf(source, element.name));
  }
  return values.length === 0 ? 'type-names' : { values };
}

export function importEqualsEmit(source: Source, node: ts.ImportEqualsDeclaration): ImportEmit {
  if (!isTopLevel(node) || node.isTypeOnly) return 'never';
  if (hasModifier(node, K.ExportKeyword)) return 'always';
  return { values: [textOf(source, node.name)] };
}

export function reexportEmit(node: ts.ExportDeclaration): ImportEmit {
  if (!isTopLevel(node) || node.isTypeOnly) return 'never';
  const clause = node.exportClause;
  if (clause === undefined || typescript.isNamespaceExport(clause)) return 'always';
  return clause.elements.some((element) => !element.isTypeOnly) ? 'always' : 'type-names';
}

/** Imports and re-exports elsewhere sit in a `declare module` block: ambient, never emitted. */
function isTopLevel(node: ts.Node): boolean {
  return typescript.isSourceFile(node.parent);
}

/** An identifier the walk meets: a use of an imported name, a local declaration hiding one, or neither. */
export function recordIdentifier(source: Source, id: ts.Identifier): void {
  const { uses } = source.facts;
  const name = id.text;
  if (!uses.watches(name)) return;
  const parent = id.parent;
  const declared = declarationScope(id, parent);
  if (declared !== undefined) {
    if (declared !== null) uses.shadow(name, { start: declared.pos, end: declared.end });
    return;
  }
  if (isReference(id, parent) && isValuePosition(id)) uses.value(name, startOf(source, id));
}

/** A JSX element or fragment: the classic runtime calls its factory there. */
export function recordJsxElement(source: Source, node: ts.Node): void {
  source.facts.uses.jsxElement(startOf(source, node));
}

/**
 * For a value declaration's name, the node whose range it is visible over (null at the top
 * level, where it cannot hide an import); undefined when `id` declares no value.
 */
function declarationScope(id: ts.Identifier, parent: ts.Node): ts.Node | null | undefined {
  switch (parent.kind) {
    case K.VariableDeclaration:
    case K.BindingElement:
    case K.Parameter:
      return (parent as ts.NamedDeclaration).name === id ? bindingScope(parent) : undefined;
    case K.FunctionDeclaration:
    case K.ClassDeclaration:
    case K.EnumDeclaration:
      return (parent as ts.NamedDeclaration).name === id ? blockOf(parent) : undefined;
    case K.FunctionExpression:
    case K.ClassExpression:
      return (parent as ts.NamedDeclaration).name === id ? parent : undefined;
    default:
      return undefined;
  }
}

/** Where a variable, destructured name or parameter is visible. */
function bindingScope(declaration: ts.Node): ts.Node | null {
  let node = declaration;
  while (
    typescript.isBindingElement(node) ||
    typescript.isObjectBindingPattern(node) ||
    typescript.isArrayBindingPattern(node)
  )
    node = node.parent;
  if (typescript.isParameter(node)) return node.parent;
  if (typescript.isCatchClause(node.parent)) return node.parent;
  const list = node.parent;
  const blockScoped = (list.flags & typescript.NodeFlags.BlockScoped) !== 0;
  if (blockScoped) {
    const owner = list.parent;
    // `for (const a of b)`: the loop.
    return isLoop(owner) ? owner : blockOf(owner);
  }
  for (let at = list.parent; ; at = at.parent) {
    if (typescript.isFunctionLike(at)) return at;
    if (typescript.isSourceFile(at)) return null;
  }
}

/** The block (or the top level: null) a declaration statement belongs to. */
function blockOf(statement: ts.Node): ts.Node | null {
  for (let at = statement.parent; ; at = at.parent) {
    switch (at.kind) {
      case K.Block:
      case K.ModuleBlock:
      case K.CaseBlock:
        return at;
      case K.SourceFile:
        return null;
    }
  }
}

function isLoop(node: ts.Node): boolean {
  return (
    node.kind === K.ForStatement || node.kind === K.ForInStatement || node.kind === K.ForOfStatement
  );
}

/** Whether `id` refers to something by its name, rather than naming a member, label or declaration. */
function isReference(id: ts.Identifier, parent: ts.Node): boolean {
  switch (parent.kind) {
    case K.PropertyAccessExpression:
      return (parent as ts.PropertyAccessExpression).name !== id;
    case K.QualifiedName:
      return (parent as ts.QualifiedName).right !== id;
    case K.ShorthandPropertyAssignment:
      return true;
    case K.ExportSpecifier: {
      // A local `export { a as b }` uses `a`, unless written `type`; a re-export names the
      // other module's names.
      const specifier = parent as ts.ExportSpecifier;
      const declaration = specifier.parent.parent;
      if (declaration.moduleSpecifier !== undefined) return false;
      if (specifier.isTypeOnly || declaration.isTypeOnly) return false;
      return (specifier.propertyName ?? specifier.name) === id;
    }
    case K.LabeledStatement:
    case K.BreakStatement:
    case K.ContinueStatement:
    case K.JsxNamespacedName:
    case K.MetaProperty:
      return false;
  }
  const named = parent as { readonly name?: ts.Node; readonly propertyName?: ts.Node };
  return named.name !== id && named.propertyName !== id;
}

/**
 * Whether a reference is to a value that the emit keeps: not inside a type (`typeof a` in a
 * type included), an `implements` clause or an interface's `extends` (an instantiation
 * expression `f<T>` is a value), except inside a computed
 * property name, which is a value even in a type (`{ [a.key]: string }`); and not in an ambient
 * context (a `declare` statement or member, a `declare module`/`namespace`/`global` block).
 */
function isValuePosition(id: ts.Identifier): boolean {
  let value = true;
  let settled = false;
  for (let node: ts.Node = id.parent; !typescript.isSourceFile(node); node = node.parent) {
    if (hasModifier(node, K.DeclareKeyword)) return false;
    if (settled) continue;
    if (node.kind === K.ComputedPropertyName) settled = true;
    else if (node.kind === K.ExpressionWithTypeArguments) {
      if (isHeritage(node)) {
        value = isClassExtends(node);
        settled = true;
      }
    } else if (typescript.isTypeNode(node)) {
      value = false;
      settled = true;
    }
  }
  return value;
}

/** In an `extends`/`implements` clause; elsewhere an instantiation expression (`f<T>`), a value. */
function isHeritage(node: ts.Node): boolean {
  return typescript.isHeritageClause(node.parent);
}

function isClassExtends(node: ts.Node): boolean {
  const clause = node.parent;
  return (
    typescript.isHeritageClause(clause) &&
    clause.token === K.ExtendsKeyword &&
    typescript.isClassLike(clause.parent)
  );
}
