import type {
  Declaration,
  Directive,
  ExportAllDeclaration,
  ExportNamedDeclaration,
  Expression,
  ExpressionStatement,
  ImportDeclaration,
  ModuleDeclaration,
  Node,
  Statement,
  TSImportEqualsDeclaration,
} from 'oxc-parser';
import { DEFAULT_EXPORT, diLibraryOf, frameworkDiOf } from '../javascript-conventions.js';
import { importBindings, reexportBindings } from './bindings.js';
import {
  bindingNames,
  declarationStart,
  isIdentifierNamed,
  literalText,
  nameOf,
  type Source,
  textOf,
} from './syntax.js';
import { importEmit, importEqualsEmit, reexportEmit } from './uses.js';

type TopLevel = Directive | Statement | ModuleDeclaration;

/** Imports, re-exports and exports, by the rules written down in typescript/modules.ts. */
export function recordImport(source: Source, node: ImportDeclaration): void {
  const specifier = literalText(source, node.source);
  if (specifier === null) return;
  const named = node.specifiers.filter((element) => element.type === 'ImportSpecifier');
  const hasDefault = node.specifiers.some((element) => element.type === 'ImportDefaultSpecifier');
  const typeOnly =
    node.importKind === 'type' ||
    (!hasDefault && everyNameIsType(named.map((element) => element.importKind)));
  const bindings = importBindings(source, node);
  source.facts.addImport(
    { specifier, typeOnly, reexport: false, dynamic: false, bindings },
    node.start,
    importEmit(source, node, isTopLevel(source)),
  );
  const names = named.map((element) => textOf(source, element.imported));
  recordDiImport(source, specifier, names, node.start);
}

/** `import x = require('y')`. */
export function recordImportEquals(source: Source, node: TSImportEqualsDeclaration): void {
  const reference = node.moduleReference;
  if (reference.type !== 'TSExternalModuleReference') return;
  const specifier = literalText(source, reference.expression);
  if (specifier === null) return;
  const at = declarationStart(source, node);
  const bindings = [{ imported: '*', local: textOf(source, node.id) }];
  const typeOnly = node.importKind === 'type';
  const parent = source.ancestors.at(-1);
  const exported = parent?.type === 'ExportNamedDeclaration';
  const topLevel = source.ancestors.length === (exported ? 2 : 1);
  source.facts.addImport(
    { specifier, typeOnly, reexport: false, dynamic: false, bindings },
    at,
    importEqualsEmit(source, node, topLevel, exported),
  );
  recordDiImport(source, specifier, [], at);
}

export function recordReexport(
  source: Source,
  node: ExportNamedDeclaration | ExportAllDeclaration,
): void {
  const specifier = literalText(source, node.source);
  if (specifier === null) return;
  const named = node.type === 'ExportNamedDeclaration' ? node.specifiers : [];
  const typeOnly =
    node.exportKind === 'type' || everyNameIsType(named.map((element) => element.exportKind));
  const bindings = reexportBindings(source, node);
  source.facts.addImport(
    { specifier, typeOnly, reexport: true, dynamic: false, bindings },
    node.start,
    reexportEmit(node, isTopLevel(source)),
  );
  const names = named.map((element) => textOf(source, element.local));
  recordDiImport(source, specifier, names, node.start);
}

/** Imports and re-exports elsewhere sit in a `declare module` block: ambient, never emitted. */
function isTopLevel(source: Source): boolean {
  return source.ancestors.length === 1;
}

function recordDiImport(source: Source, specifier: string, names: string[], at: number): void {
  const library = diLibraryOf(specifier) ?? frameworkDiOf(specifier, names);
  if (library !== null) source.facts.addDiContainer(library, at);
}

function everyNameIsType(kinds: readonly (string | undefined)[]): boolean {
  return kinds.length > 0 && kinds.every((kind) => kind === 'type');
}

/** The names a top-level statement exports. */
export function recordExports(source: Source, statement: TopLevel): void {
  const add = (name: Node, typeOnly: boolean) =>
    source.facts.addExport(nameOf(source, name), typeOnly, name.start);
  switch (statement.type) {
    case 'TSExportAssignment':
      source.facts.addExport(DEFAULT_EXPORT, false, statement.start);
      return;
    case 'ExportDefaultDeclaration': {
      const { declaration } = statement;
      const typeOnly = declaration.type === 'TSInterfaceDeclaration';
      // `@Dec export default class {}`: TypeScript's statement starts at the decorator.
      const decorators = 'decorators' in declaration ? declaration.decorators : undefined;
      const at = Math.min(statement.start, decorators?.[0]?.start ?? statement.start);
      source.facts.addExport(DEFAULT_EXPORT, typeOnly, at);
      return;
    }
    case 'ExportAllDeclaration': {
      const typeOnly = statement.exportKind === 'type';
      if (statement.exported === null) source.facts.addExport('*', typeOnly, statement.start);
      else add(statement.exported, typeOnly);
      return;
    }
    case 'ExportNamedDeclaration': {
      const { declaration } = statement;
      if (declaration === null) {
        const typeOnly = statement.exportKind === 'type';
        for (const element of statement.specifiers)
          add(element.exported, typeOnly || element.exportKind === 'type');
      } else if (declaration.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations) {
          for (const name of bindingNames(declarator.id)) add(name, false);
        }
      } else {
        const typeOnly =
          declaration.type === 'TSInterfaceDeclaration' ||
          declaration.type === 'TSTypeAliasDeclaration';
        const name = declaredName(declaration);
        if (name !== null) add(name, typeOnly);
      }
      return;
    }
  }
}

/** The declared name; of `namespace A.B {}`, `A` (TypeScript nests one declaration per name). */
function declaredName(declaration: Declaration): Node | null {
  if (declaration.type === 'VariableDeclaration') return null;
  let name: Node | null = declaration.id;
  while (name?.type === 'TSQualifiedName') name = name.left;
  return name;
}

/** Top-level `module.exports = …`, `exports.a = …`, `module.exports.a = exports.b = …`. */
export function recordCommonJsExports(source: Source, statement: ExpressionStatement): void {
  let expression: Expression = statement.expression;
  while (expression.type === 'AssignmentExpression' && expression.operator === '=') {
    const target = expression.left;
    if (
      target.type === 'MemberExpression' &&
      !target.computed &&
      target.property.type === 'Identifier'
    ) {
      if (isModuleExports(target)) {
        source.facts.addExport(DEFAULT_EXPORT, false, target.start);
      } else if (isIdentifierNamed(target.object, 'exports') || isModuleExports(target.object)) {
        const { property } = target;
        source.facts.addExport(textOf(source, property), false, property.start);
      }
    }
    expression = expression.right;
  }
}

function isModuleExports(node: Node): boolean {
  return (
    node.type === 'MemberExpression' &&
    !node.computed &&
    isIdentifierNamed(node.object, 'module') &&
    isIdentifierNamed(node.property, 'exports')
  );
}

/** Module-level `let`/`var` (rules in typescript/modules.ts). */
export function recordTopLevelState(source: Source, statement: TopLevel): void {
  const declaration =
    statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
  if (declaration?.type !== 'VariableDeclaration' || declaration.declare === true) return;
  if (declaration.kind !== 'let' && declaration.kind !== 'var') return;
  for (const declarator of declaration.declarations) {
    for (const name of bindingNames(declarator.id)) {
      source.facts.addMutableState(textOf(source, name), name.start);
    }
  }
}
