import type { Node } from 'web-tree-sitter';
import { DEFAULT_EXPORT, diLibraryOf, frameworkDiOf } from './javascript-conventions.js';
import { importBindings, reexportBindings } from './typescript-bindings.js';
import {
  bindingNames,
  hasToken,
  literalText,
  namedChildren,
  propertyName,
  type Source,
  textOf,
} from './typescript-syntax.js';
import { importEmit, reexportEmit } from './typescript-uses.js';

/**
 * Imports, re-exports and exports from tree-sitter's TS/JS tree. Rules shared with the
 * TypeScript extractor:
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
export function recordImport(source: Source, node: Node): void {
  const clause = namedChildren(node).find((child) => child.type === 'import_clause');
  const requireClause = namedChildren(node).find((child) => child.type === 'import_require_clause');
  const specifier = literalText(
    source,
    node.childForFieldName('source') ?? requireClause?.childForFieldName('source'),
  );
  if (specifier === null) return;
  const named = namedImports(clause);
  const typeOnly =
    hasToken(node, 'type') ||
    (clause !== undefined && namedChildren(clause).length === 1 && everyNameIsType(named));
  const bindings = importBindings(source, node);
  source.facts.addImport(
    { specifier, typeOnly, reexport: false, dynamic: false, bindings },
    node.startIndex,
    importEmit(source, node),
  );
  const names = named.map((specifier) =>
    textOf(source, specifier.childForFieldName('name') ?? specifier),
  );
  recordDiImport(source, specifier, names, node.startIndex);
}

/** `export … from` anywhere (a `declare module` block included): an import that re-exports. */
export function recordReexport(source: Source, node: Node): void {
  const specifier = literalText(source, node.childForFieldName('source'));
  if (specifier === null) return;
  const named = exportSpecifiers(node);
  const typeOnly = hasToken(node, 'type') || everyNameIsType(named);
  const bindings = reexportBindings(source, node);
  source.facts.addImport(
    { specifier, typeOnly, reexport: true, dynamic: false, bindings },
    node.startIndex,
    reexportEmit(node),
  );
  const names = named.map((specifier) =>
    textOf(source, specifier.childForFieldName('name') ?? specifier),
  );
  recordDiImport(source, specifier, names, node.startIndex);
}

export function recordDiImport(
  source: Source,
  specifier: string,
  names: string[],
  at: number,
): void {
  const library = diLibraryOf(specifier) ?? frameworkDiOf(specifier, names);
  if (library !== null) source.facts.addDiContainer(library, at);
}

/** The names a top-level `export` statement exports. */
export function recordExports(source: Source, node: Node): void {
  const declaration = node.childForFieldName('declaration');
  if (hasToken(node, 'default') || hasToken(node, '=')) {
    const typeOnly = declaration?.type === 'interface_declaration';
    source.facts.addExport(DEFAULT_EXPORT, typeOnly, node.startIndex);
    return;
  }
  if (declaration !== null) {
    recordDeclarationExports(source, declaration);
    return;
  }
  const typeOnly = hasToken(node, 'type');
  const namespace = namedChildren(node).find((child) => child.type === 'namespace_export');
  const namespaceName = namespace === undefined ? undefined : namedChildren(namespace)[0];
  if (namespaceName !== undefined) {
    source.facts.addExport(exportedName(source, namespaceName), typeOnly, namespaceName.startIndex);
  } else if (hasToken(node, '*')) {
    source.facts.addExport('*', typeOnly, node.startIndex);
  }
  for (const specifier of exportSpecifiers(node)) {
    const name = specifier.childForFieldName('alias') ?? specifier.childForFieldName('name');
    if (name === null) continue;
    const specifierTypeOnly = typeOnly || hasToken(specifier, 'type');
    source.facts.addExport(exportedName(source, name), specifierTypeOnly, name.startIndex);
  }
}

function recordDeclarationExports(source: Source, declaration: Node): void {
  const add = (name: Node | null | undefined, typeOnly: boolean) => {
    if (name === null || name === undefined) return;
    // `export namespace A.B {}` exports `A`.
    const [first = ''] = textOf(source, name).split('.');
    source.facts.addExport(first, typeOnly, name.startIndex);
  };
  switch (declaration.type) {
    case 'interface_declaration':
    case 'type_alias_declaration':
      add(declaration.childForFieldName('name'), true);
      return;
    case 'lexical_declaration':
    case 'variable_declaration':
      for (const name of declaredNames(declaration)) add(name, false);
      return;
    case 'ambient_declaration':
      for (const inner of namedChildren(declaration)) recordDeclarationExports(source, inner);
      return;
    case 'import_alias':
      add(namedChildren(declaration)[0], false);
      return;
    default:
      add(declaration.childForFieldName('name'), false);
  }
}

/** The binding names of a `let`/`const`/`var` declaration, in source order. */
export function declaredNames(declaration: Node): Node[] {
  return namedChildren(declaration)
    .filter((child) => child.type === 'variable_declarator')
    .flatMap((declarator) => bindingNames(declarator.childForFieldName('name')));
}

/** Top-level `module.exports = …`, `exports.a = …`, `module.exports.a = exports.b = …`. */
export function recordCommonJsExports(source: Source, statement: Node): void {
  let expression = namedChildren(statement)[0];
  while (expression?.type === 'assignment_expression') {
    const target = expression.childForFieldName('left');
    if (target?.type === 'member_expression') recordCommonJsTarget(source, target);
    expression = expression.childForFieldName('right') ?? undefined;
  }
}

function recordCommonJsTarget(source: Source, target: Node): void {
  const object = target.childForFieldName('object');
  const property = target.childForFieldName('property');
  if (object === null || property?.type !== 'property_identifier') return;
  if (isModuleExports(source, target)) {
    source.facts.addExport(DEFAULT_EXPORT, false, target.startIndex);
  } else if (isIdentifier(source, object, 'exports') || isModuleExports(source, object)) {
    source.facts.addExport(textOf(source, property), false, property.startIndex);
  }
}

function isModuleExports(source: Source, node: Node): boolean {
  const property = node.childForFieldName('property');
  return (
    node.type === 'member_expression' &&
    isIdentifier(source, node.childForFieldName('object'), 'module') &&
    property !== null &&
    textOf(source, property) === 'exports'
  );
}

function isIdentifier(source: Source, node: Node | null, name: string): boolean {
  return node?.type === 'identifier' && textOf(source, node) === name;
}

function namedImports(clause: Node | undefined): Node[] {
  const list =
    clause === undefined
      ? undefined
      : namedChildren(clause).find((child) => child.type === 'named_imports');
  return list === undefined ? [] : namedChildren(list);
}

function exportSpecifiers(node: Node): Node[] {
  const clause = namedChildren(node).find((child) => child.type === 'export_clause');
  return clause === undefined ? [] : namedChildren(clause);
}

function everyNameIsType(specifiers: readonly Node[]): boolean {
  return specifiers.length > 0 && specifiers.every((specifier) => hasToken(specifier, 'type'));
}

function exportedName(source: Source, name: Node): string {
  return propertyName(source, name) ?? textOf(source, name);
}
