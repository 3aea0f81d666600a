import type * as ts from 'typescript';
import { DEFAULT_EXPORT, diLibraryOf, frameworkDiOf } from '../javascript-conventions.js';
import { typescript } from '../typescript-runtime.js';
import { importClauseBindings, reexportBindings } from './bindings.js';
import {
  bindingNames,
  hasModifier,
  isIdentifierNamed,
  literalText,
  propertyName,
  type Source,
  startOf,
  textOf,
} from './syntax.js';
import { importEmit, importEqualsEmit, reexportEmit } from './uses.js';

/**
 * Imports, re-exports and exports. Rules shared with the oxc extractor:
 * - an import is type-only when written `import type`/`export type`, or when it names at least
 *   one binding and every one is marked `type` (`import {} from 'x'` is a runtime import);
 * - a fact's line is the statement's first line; an export's is the line of its name (the alias
 *   when renamed), or the statement's for `default`, `*` and `export =`;
 * - only top-level statements export: `export` inside `namespace`/`declare module` does not;
 * - `export =` and CommonJS `module.exports =` export `default`; `exports.a =` and
 *   `module.exports.a =` at top level export `a`;
 * - interfaces and type aliases are type-only exports; enums, namespaces, `declare` values are
 *   not.
 */
export function recordImport(source: Source, node: ts.ImportDeclaration): void {
  const specifier = literalText(source, node.moduleSpecifier);
  if (specifier === null) return;
  const clause = node.importClause;
  const named =
    clause?.namedBindings !== undefined && typescript.isNamedImports(clause.namedBindings)
      ? clause.namedBindings.elements
      : [];
  const typeOnly =
    clause !== undefined &&
    (clause.isTypeOnly || (clause.name === undefined && everyNameIsType(named)));
  const at = startOf(source, node);
  const bindings = importClauseBindings(source, clause);
  source.facts.addImport(
    { specifier, typeOnly, reexport: false, dynamic: false, bindings },
    at,
    importEmit(source, node),
  );
  const names = named.map((element) => textOf(source, element.propertyName ?? element.name));
  recordDiImport(source, specifier, names, at);
}

/** `import x = require('y')`. */
export function recordImportEquals(source: Source, node: ts.ImportEqualsDeclaration): void {
  const reference = node.moduleReference;
  if (!typescript.isExternalModuleReference(reference)) return;
  const specifier = literalText(source, reference.expression);
  if (specifier === null) return;
  const at = startOf(source, node);
  const bindings = [{ imported: '*', local: textOf(source, node.name) }];
  source.facts.addImport(
    { specifier, typeOnly: node.isTypeOnly, reexport: false, dynamic: false, bindings },
    at,
    importEqualsEmit(source, node),
  );
  recordDiImport(source, specifier, [], at);
}

export function recordReexport(source: Source, node: ts.ExportDeclaration): void {
  const specifier = literalText(source, node.moduleSpecifier);
  if (specifier === null) return;
  const named =
    node.exportClause !== undefined && typescript.isNamedExports(node.exportClause)
      ? node.exportClause.elements
      : [];
  const typeOnly = node.isTypeOnly || everyNameIsType(named);
  const at = startOf(source, node);
  const bindings = reexportBindings(source, node);
  source.facts.addImport(
    { specifier, typeOnly, reexport: true, dynamic: false, bindings },
    at,
    reexportEmit(node),
  );
  const names = named.map((element) => textOf(source, element.propertyName ?? element.name));
  recordDiImport(source, specifier, names, at);
}

function recordDiImport(source: Source, specifier: string, names: string[], at: number): void {
  const library = diLibraryOf(specifier) ?? frameworkDiOf(specifier, names);
  if (library !== null) source.facts.addDiContainer(library, at);
}

function everyNameIsType(elements: readonly { readonly isTypeOnly: boolean }[]): boolean {
  return elements.length > 0 && elements.every((element) => element.isTypeOnly);
}

/** The names a top-level statement exports. */
export function recordExports(source: Source, statement: ts.Statement): void {
  const add = (name: ts.Node, typeOnly: boolean) =>
    source.facts.addExport(propertyName(source, name) ?? '', typeOnly, startOf(source, name));
  if (typescript.isExportAssignment(statement)) {
    source.facts.addExport(DEFAULT_EXPORT, false, startOf(source, statement));
  } else if (typescript.isExportDeclaration(statement)) {
    const clause = statement.exportClause;
    if (clause === undefined)
      source.facts.addExport('*', statement.isTypeOnly, startOf(source, statement));
    else if (typescript.isNamespaceExport(clause)) add(clause.name, statement.isTypeOnly);
    else
      for (const element of clause.elements)
        add(element.name, statement.isTypeOnly || element.isTypeOnly);
  } else if (hasModifier(statement, typescript.SyntaxKind.ExportKeyword)) {
    const typeOnly =
      typescript.isInterfaceDeclaration(statement) || typescript.isTypeAliasDeclaration(statement);
    if (hasModifier(statement, typescript.SyntaxKind.DefaultKeyword)) {
      source.facts.addExport(DEFAULT_EXPORT, typeOnly, startOf(source, statement));
    } else if (typescript.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        for (const name of bindingNames(declaration.name)) add(name, false);
      }
    } else {
      const name = declaredName(statement);
      if (name !== undefined) add(name, typeOnly);
    }
  }
}

function declaredName(statement: ts.Statement): ts.Node | undefined {
  if (
    typescript.isFunctionDeclaration(statement) ||
    typescript.isClassDeclaration(statement) ||
    typescript.isEnumDeclaration(statement) ||
    typescript.isInterfaceDeclaration(statement) ||
    typescript.isTypeAliasDeclaration(statement) ||
    typescript.isImportEqualsDeclaration(statement) ||
    typescript.isModuleDeclaration(statement)
  ) {
    return statement.name;
  }
  return undefined;
}

/** Top-level `module.exports = …`, `exports.a = …`, `module.exports.a = exports.b = …`. */
export function recordCommonJsExports(source: Source, statement: ts.ExpressionStatement): void {
  let expression = statement.expression;
  while (
    typescript.isBinaryExpression(expression) &&
    expression.operatorToken.kind === typescript.SyntaxKind.EqualsToken
  ) {
    const target = expression.left;
    if (typescript.isPropertyAccessExpression(target) && typescript.isIdentifier(target.name)) {
      if (isModuleExports(target)) {
        source.facts.addExport(DEFAULT_EXPORT, false, startOf(source, target));
      } else if (
        isIdentifierNamed(target.expression, 'exports') ||
        isModuleExports(target.expression)
      ) {
        source.facts.addExport(textOf(source, target.name), false, startOf(source, target.name));
      }
    }
    expression = expression.right;
  }
}

function isModuleExports(node: ts.Expression): boolean {
  return (
    typescript.isPropertyAccessExpression(node) &&
    isIdentifierNamed(node.expression, 'module') &&
    isIdentifierNamed(node.name, 'exports')
  );
}

/**
 * Module-level mutable state: each name bound by a `let` or `var` statement directly at the top
 * of the file (`export let` included), at the line of the name. Not: `const`, `declare let`
 * (no storage), `let`/`var` in a top-level block or `for` header, class static fields.
 */
export function recordTopLevelState(source: Source, statement: ts.Statement): void {
  if (
    !typescript.isVariableStatement(statement) ||
    hasModifier(statement, typescript.SyntaxKind.DeclareKeyword)
  )
    return;
  const blockScope = statement.declarationList.flags & typescript.NodeFlags.BlockScoped;
  if (blockScope !== 0 && blockScope !== typescript.NodeFlags.Let) return;
  for (const declaration of statement.declarationList.declarations) {
    for (const name of bindingNames(declaration.name)) {
      source.facts.addMutableState(textOf(source, name), startOf(source, name));
    }
  }
}
