import type { Node } from 'web-tree-sitter';
import { type ImportEmit, identifierName } from './import-uses.js';
import { CLASS_DECLARATIONS, recordClassMetadata } from './typescript-decorator-metadata.js';
import { hasToken, namedChildren, type Source, textOf } from './typescript-syntax.js';

/**
 * How the file uses what its top-level imports bind, read from tree-sitter's tree. The rules
 * (the same in the three extractors, each over its own tree; the oracle test holds them to
 * `ts.transpileModule`):
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

const FUNCTIONS = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'generator_function',
  'arrow_function',
  'method_definition',
  'function_signature',
  'abstract_method_signature',
  'method_signature',
]);
const BLOCKS = new Set(['statement_block', 'switch_body']);
const LOOPS = new Set(['for_statement', 'for_in_statement']);

/** Nodes whose content is a type: a reference there is no value (but in a computed key). */
const TYPES = new Set([
  'type_annotation',
  'opting_type_annotation',
  'omitting_type_annotation',
  'adding_type_annotation',
  'asserts_annotation',
  'type_predicate_annotation',
  'type_arguments',
  'type_parameters',
  'type_alias_declaration',
  'interface_declaration',
  'implements_clause',
  'extends_type_clause',
  'index_signature',
]);

/** Before the walk: the names the top-level imports bind as values, which the walk watches. */
export function watchImportedNames(source: Source, root: Node): void {
  const { uses } = source.facts;
  for (const statement of namedChildren(root)) {
    if (statement.type !== 'import_statement') continue;
    const emit = importEmit(source, statement);
    if (typeof emit === 'object') for (const name of emit.values) uses.watch(name);
  }
}

export function importEmit(source: Source, node: Node): ImportEmit {
  if (node.parent?.type !== 'program' || hasToken(node, 'type')) return 'never';
  const children = namedChildren(node);
  const required = children.find((child) => child.type === 'import_require_clause');
  const requiredName = required === undefined ? undefined : namedChildren(required)[0];
  if (requiredName !== undefined) return { values: [textOf(source, requiredName)] };
  const clause = children.find((child) => child.type === 'import_clause');
  if (clause === undefined) return 'always';
  const values: string[] = [];
  for (const part of namedChildren(clause)) {
    if (part.type === 'identifier') values.push(textOf(source, part));
    else if (part.type === 'namespace_import') {
      const name = namedChildren(part)[0];
      if (name !== undefined) values.push(textOf(source, name));
    } else if (part.type === 'named_imports') {
      for (const specifier of namedChildren(part)) {
        if (specifier.type !== 'import_specifier' || hasToken(specifier, 'type')) continue;
        const local = specifier.childForFieldName('alias') ?? specifier.childForFieldName('name');
        if (local !== null) values.push(textOf(source, local));
      }
    }
  }
  return values.length === 0 ? 'type-names' : { values };
}

export function reexportEmit(node: Node): ImportEmit {
  if (node.parent?.type !== 'program' || hasToken(node, 'type')) return 'never';
  const clause = namedChildren(node).find((child) => child.type === 'export_clause');
  if (clause === undefined) return 'always';
  return namedChildren(clause).some(
    (specifier) => specifier.type === 'export_specifier' && !hasToken(specifier, 'type'),
  )
    ? 'always'
    : 'type-names';
}

/** A node of the walk that may use or hide an imported name; called only while names are watched. */
export function recordUse(source: Source, node: Node): void {
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier':
    case 'shorthand_property_identifier_pattern':
    case 'type_identifier':
      recordName(source, node);
      return;
    case 'jsx_opening_element':
    case 'jsx_self_closing_element':
      source.facts.uses.jsxElement(node.startIndex);
      return;
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class':
      recordClassMetadata(source, node);
      return;
  }
}

function recordName(source: Source, id: Node): void {
  const { uses } = source.facts;
  const name = identifierName(textOf(source, id));
  if (!uses.watches(name)) return;
  const parent = id.parent;
  if (parent === null) return;
  const declared = declarationScope(id, parent);
  if (declared !== undefined) {
    if (declared !== null)
      uses.shadow(name, { start: declared.startIndex, end: declared.endIndex });
    return;
  }
  if (id.type !== 'type_identifier' && isReference(source, id, parent) && isValuePosition(id))
    uses.value(name, id.startIndex);
}

/**
 * For a value declaration's name, the node whose range it is visible over (null at the top
 * level, where it cannot hide an import); undefined when `id` declares no value.
 */
function declarationScope(id: Node, parent: Node): Node | null | undefined {
  if (id.type === 'type_identifier') {
    // Only a class's name is a value among type identifiers.
    if (!isField(parent, 'name', id)) return undefined;
    if (CLASS_DECLARATIONS.has(parent.type)) return blockOf(parent);
    return parent.type === 'class' ? parent : undefined;
  }
  let child = id;
  let holder: Node | null = parent;
  // Up through a destructuring pattern to what holds it.
  while (holder !== null) {
    const { type } = holder;
    if (type === 'pair_pattern') {
      if (!isField(holder, 'value', child)) return undefined;
    } else if (type === 'assignment_pattern' || type === 'object_assignment_pattern') {
      if (!isField(holder, 'left', child)) return undefined;
    } else if (type !== 'object_pattern' && type !== 'array_pattern' && type !== 'rest_pattern') {
      break;
    }
    child = holder;
    holder = holder.parent;
  }
  if (holder === null) return undefined;
  switch (holder.type) {
    case 'variable_declarator':
      return isField(holder, 'name', child) ? variableScope(holder) : undefined;
    case 'required_parameter':
    case 'optional_parameter':
      return isField(holder, 'pattern', child) ? functionOf(holder) : undefined;
    case 'arrow_function':
      return isField(holder, 'parameter', child) ? holder : undefined;
    case 'catch_clause':
      return isField(holder, 'parameter', child) ? holder : undefined;
    case 'for_in_statement':
      if (!isField(holder, 'left', child)) return undefined;
      if (hasToken(holder, 'var')) return functionOf(holder);
      return hasToken(holder, 'let') || hasToken(holder, 'const') ? holder : undefined;
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'enum_declaration':
      return isField(holder, 'name', child) ? blockOf(holder) : undefined;
    case 'function_expression':
    case 'generator_function':
      return isField(holder, 'name', child) ? holder : undefined;
    default:
      return undefined;
  }
}

function isField(node: Node, field: string, child: Node): boolean {
  return node.childForFieldName(field)?.equals(child) ?? false;
}

/** Where a variable is visible: its block (its loop), or its function for `var`. */
function variableScope(declarator: Node): Node | null {
  const declaration = declarator.parent;
  if (declaration === null) return null;
  if (declaration.type === 'variable_declaration') return functionOf(declaration);
  const owner = declaration.parent;
  if (owner !== null && LOOPS.has(owner.type)) return owner;
  return blockOf(declaration);
}

/** The innermost function holding a node (null at the top level). */
function functionOf(node: Node): Node | null {
  for (let at = node.parent; at !== null; at = at.parent) if (FUNCTIONS.has(at.type)) return at;
  return null;
}

/** The block (or the top level: null) a declaration statement belongs to. */
function blockOf(statement: Node): Node | null {
  for (let at = statement.parent; at !== null; at = at.parent) if (BLOCKS.has(at.type)) return at;
  return null;
}

/** Whether `id` refers to something by its name, rather than naming an import, module or alias. */
function isReference(source: Source, id: Node, parent: Node): boolean {
  switch (parent.type) {
    case 'import_specifier':
    case 'import_clause':
    case 'namespace_import':
    case 'import_require_clause':
    case 'internal_module':
    case 'module':
    case 'jsx_namespace_name':
    case 'namespace_export':
      return false;
    case 'nested_identifier':
      return isField(parent, 'object', id) || namedChildren(parent)[0]?.equals(id) === true;
    case 'import_alias':
      return !namedChildren(parent)[0]?.equals(id);
    case 'export_specifier': {
      // A local `export { a as b }` uses `a`, unless written `type`; a re-export names the
      // other module's names.
      const statement = parent.parent?.parent;
      if (statement === null || statement === undefined) return false;
      if (statement.childForFieldName('source') !== null) return false;
      if (hasToken(parent, 'type') || hasToken(statement, 'type')) return false;
      return isField(parent, 'name', id) && textOf(source, id) !== '';
    }
  }
  return true;
}

/**
 * Whether a reference is to a value the emit keeps: not inside a type, an `implements` clause or
 * an interface's `extends`, unless inside a computed key first (`{ [a.key]: string }`); never
 * in an ambient context (`declare`).
 */
function isValuePosition(id: Node): boolean {
  let value = true;
  let settled = false;
  let child = id;
  for (let node = id.parent; node !== null; node = node.parent) {
    const { type } = node;
    if (type === 'ambient_declaration') return false;
    if (type === 'public_field_definition' && hasToken(node, 'declare')) return false;
    if (!settled) {
      if (type === 'computed_property_name') settled = true;
      else if (TYPES.has(type) || isTypeOfAssertion(node, child)) {
        value = false;
        settled = true;
      }
    }
    child = node;
  }
  return value;
}

/** The type of `x as T`, `x satisfies T`: every named child but the expression. */
function isTypeOfAssertion(node: Node, child: Node): boolean {
  if (node.type !== 'as_expression' && node.type !== 'satisfies_expression') return false;
  return !namedChildren(node)[0]?.equals(child);
}
