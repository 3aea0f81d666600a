import type { Node } from 'web-tree-sitter';
import type { DecoratorMode } from '../../model/facts.js';
import { type ImportEmit, identifierName } from './import-uses.js';
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
const CLASS_DECLARATIONS = new Set(['class_declaration', 'abstract_class_declaration']);

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

/**
 * Decorator metadata of a class declaration (by TypeScript's checker,
 * markDecoratorAliasReferenced; the rules are written down in typescript/uses.ts
 * recordDecorator): the constructor's parameter types when the class is decorated; a
 * decorated member's types; with legacy decorators, a decorated parameter's method or
 * constructor. Class expressions' members allow standard decorators only.
 */
function recordClassMetadata(source: Source, node: Node): void {
  if (isAmbient(node)) return;
  const body = node.childForFieldName('body');
  if (body === null) return;
  const members = namedChildren(body);
  // A class expression's constructor and parameters have no metadata; its members may.
  const declaration = CLASS_DECLARATIONS.has(node.type);
  const decorated =
    declaration &&
    (namedChildren(node).some(isDecorator) ||
      (node.parent?.type === 'export_statement' && namedChildren(node.parent).some(isDecorator)));
  let pending = false;
  for (const member of members) {
    if (isDecorator(member)) {
      pending = true;
      continue;
    }
    const memberDecorated = pending || namedChildren(member).some(isDecorator);
    pending = false;
    if (member.type === 'method_definition') {
      recordMethodMetadata(source, member, memberDecorated, decorated, members);
      if (declaration) recordParameterMetadata(source, member);
    } else if (member.type === 'public_field_definition' && memberDecorated) {
      const standard = !hasToken(member, 'abstract') && !hasToken(member, 'declare');
      const mode = memberMode(member, standard);
      if (mode !== null) recordMetadataType(source, typeOf(member), mode);
    }
  }
}

function recordMethodMetadata(
  source: Source,
  method: Node,
  decorated: boolean,
  classDecorated: boolean,
  members: readonly Node[],
): void {
  if (method.childForFieldName('body') === null) return;
  const parameters = parametersOf(method);
  const name = method.childForFieldName('name');
  const isConstructor = name !== null && textOf(source, name) === 'constructor';
  if (isConstructor) {
    if (classDecorated)
      for (const parameter of parameters) recordParameter(source, parameter, 'any');
  } else if (decorated) {
    const mode = memberMode(method, true);
    if (mode !== null) {
      if (hasToken(method, 'get') || hasToken(method, 'set'))
        recordMetadataType(
          source,
          accessorType(method) ?? pairedAccessorType(source, method, members),
          mode,
        );
      else {
        for (const parameter of parameters) recordParameter(source, parameter, mode);
        recordMetadataType(source, typeOf(method, 'return_type'), mode);
      }
    }
  }
}

/** Legacy decorators only: a decorated parameter of a method or constructor (not a getter). */
function recordParameterMetadata(source: Source, method: Node): void {
  if (method.childForFieldName('body') === null) return;
  const parameters = parametersOf(method);
  const name = method.childForFieldName('name');
  const isConstructor = name !== null && textOf(source, name) === 'constructor';
  const parameterDecorated = parameters.some(
    (parameter) =>
      !isThisParameter(source, parameter) && namedChildren(parameter).some(isDecorator),
  );
  if (!parameterDecorated || hasToken(method, 'get')) return;
  for (const parameter of parameters) recordParameter(source, parameter, 'legacy');
  if (!isConstructor) recordMetadataType(source, typeOf(method, 'return_type'), 'legacy');
}

function isDecorator(node: Node): boolean {
  return node.type === 'decorator';
}

function isAmbient(node: Node): boolean {
  for (let at: Node | null = node; at !== null; at = at.parent)
    if (at.type === 'ambient_declaration') return true;
  return false;
}

/** Which decorators let a member of its class be decorated; `standard`: standard ones allow it. */
function memberMode(member: Node, standard: boolean): DecoratorMode | null {
  const owner = member.parent?.parent;
  const name = member.childForFieldName('name');
  const legacy =
    owner !== null &&
    owner !== undefined &&
    CLASS_DECLARATIONS.has(owner.type) &&
    name?.type !== 'private_property_identifier';
  if (legacy && standard) return 'any';
  if (legacy) return 'legacy';
  return standard ? 'es' : null;
}

function parametersOf(method: Node): Node[] {
  const list = method.childForFieldName('parameters');
  return list === null ? [] : namedChildren(list).filter((child) => child.type !== 'decorator');
}

function isThisParameter(source: Source, parameter: Node): boolean {
  const pattern = parameter.childForFieldName('pattern');
  return pattern !== null && textOf(source, pattern) === 'this';
}

/** The type written in a node's `type` (or other) field, without its annotation's colon. */
function typeOf(node: Node, field = 'type'): Node | undefined {
  const annotation = node.childForFieldName(field);
  return annotation === null ? undefined : (namedChildren(annotation)[0] ?? undefined);
}

/** A parameter's type; a rest parameter's element type, as the metadata holds it. */
function recordParameter(source: Source, parameter: Node, mode: DecoratorMode): void {
  const type = typeOf(parameter);
  if (parameter.childForFieldName('pattern')?.type !== 'rest_pattern' || type === undefined) {
    recordMetadataType(source, type, mode);
    return;
  }
  if (type.type === 'array_type') recordMetadataType(source, namedChildren(type)[0], mode);
  else if (type.type === 'generic_type') {
    const args = type.childForFieldName('type_arguments');
    const list = args === null ? [] : namedChildren(args);
    if (list.length === 1) recordMetadataType(source, list[0], mode);
  }
}

function accessorType(method: Node): Node | undefined {
  if (hasToken(method, 'get')) return typeOf(method, 'return_type');
  const parameters = parametersOf(method);
  const value = parameters.find(
    (parameter) => parameter.childForFieldName('pattern')?.text !== 'this',
  );
  return value === undefined ? undefined : typeOf(value);
}

/** The type of the other accessor of the same name (a getter's setter, a setter's getter). */
function pairedAccessorType(
  source: Source,
  method: Node,
  members: readonly Node[],
): Node | undefined {
  const kind = hasToken(method, 'get') ? 'set' : 'get';
  const isStatic = hasToken(method, 'static');
  const name = method.childForFieldName('name');
  if (name === null) return undefined;
  for (const member of members) {
    const other = member.childForFieldName('name');
    if (
      member.type === 'method_definition' &&
      hasToken(member, kind) &&
      hasToken(member, 'static') === isStatic &&
      other !== null &&
      textOf(source, other) === textOf(source, name)
    )
      return accessorType(member);
  }
  return undefined;
}

/** The name decorator metadata writes for a type (typescript/uses.ts metadataEntity). */
function recordMetadataType(source: Source, type: Node | undefined, mode: DecoratorMode): void {
  const entity = type === undefined ? null : metadataEntity(type);
  if (entity === null) return;
  let root = entity.name;
  while (root.type === 'nested_type_identifier') {
    const left = namedChildren(root)[0];
    if (left === undefined) return;
    root = left;
  }
  // `A.B`'s root is an `identifier`, a member of nested_identifier when deeper (`A.B.C`).
  while (root.type === 'nested_identifier') {
    const left = namedChildren(root)[0];
    if (left === undefined) return;
    root = left;
  }
  const name = identifierName(textOf(source, root));
  const { uses } = source.facts;
  if (uses.watches(name)) uses.decoratorMetadata(name, mode, entity.loose);
}

interface MetadataEntity {
  readonly name: Node;
  /** Found only by skipping `null`/`undefined`, which TypeScript does without strictNullChecks. */
  readonly loose: boolean;
}

function metadataEntity(type: Node): MetadataEntity | null {
  switch (type.type) {
    case 'union_type':
    case 'intersection_type':
      return commonEntity(flatten(type, type.type));
    case 'conditional_type': {
      const branches = [
        type.childForFieldName('consequence'),
        type.childForFieldName('alternative'),
      ];
      return commonEntity(branches.filter((branch): branch is Node => branch !== null));
    }
    case 'parenthesized_type': {
      const inner = namedChildren(type)[0];
      return inner === undefined ? null : metadataEntity(inner);
    }
    case 'type_identifier':
    case 'nested_type_identifier':
      return { name: type, loose: false };
    case 'generic_type': {
      const name = type.childForFieldName('name');
      return name === null ? null : { name, loose: false };
    }
    default:
      return null;
  }
}

/** tree-sitter nests `A | B | C` as `(A | B) | C`; TypeScript lists the three. */
function flatten(type: Node, kind: string): Node[] {
  return namedChildren(type).flatMap((part) => (part.type === kind ? flatten(part, kind) : [part]));
}

function commonEntity(types: readonly Node[]): MetadataEntity | null {
  let common: MetadataEntity | null = null;
  let loose = false;
  for (const written of types) {
    let type = written;
    while (type.type === 'parenthesized_type') {
      const inner = namedChildren(type)[0];
      if (inner === undefined) return null;
      type = inner;
    }
    if (type.type === 'predefined_type' && type.text === 'never') continue;
    if (type.type === 'literal_type' && (type.text === 'undefined' || type.text === 'null')) {
      loose = true;
      continue;
    }
    if (type.type === 'undefined') {
      loose = true;
      continue;
    }
    const entity = metadataEntity(type);
    if (entity === null) return null;
    loose ||= entity.loose;
    if (common === null) common = entity;
    else if (!sameIdentifier(common.name, entity.name)) return null;
  }
  return common === null ? null : { name: common.name, loose };
}

function sameIdentifier(a: Node, b: Node): boolean {
  return a.type === 'type_identifier' && b.type === 'type_identifier' && a.text === b.text;
}
