import type {
  ExportAllDeclaration,
  ExportNamedDeclaration,
  IdentifierReference,
  ImportDeclaration,
  JSXIdentifier,
  Node,
  Program,
  TSImportEqualsDeclaration,
} from 'oxc-parser';
import type { ImportEmit } from '../import-uses.js';
import { type Source, textOf } from './syntax.js';

/** How the file uses what its imports bind, by the rules written down in typescript/uses.ts. */

type Identifier = Pick<IdentifierReference, 'type' | 'name' | 'start' | 'end'>;
type Loose = Readonly<Record<string, unknown>>;

/** A node's fields by name, for those shared by several node types (`declare`, `key`, `id`). */
export function fieldsOf(node: object): Loose {
  return node as unknown as Loose;
}

/** Before the walk: the names the top-level imports bind as values, which the walk watches. */
export function watchImportedNames(source: Source, program: Program): void {
  const { uses } = source.facts;
  for (const statement of program.body) {
    const emit =
      statement.type === 'ImportDeclaration'
        ? importEmit(source, statement, true)
        : statement.type === 'TSImportEqualsDeclaration'
          ? importEqualsEmit(source, statement, true, false)
          : 'never';
    if (typeof emit === 'object') for (const name of emit.values) uses.watch(name);
  }
}

/** `topLevel`: not in a `declare module` block (ambient, never emitted). */
export function importEmit(source: Source, node: ImportDeclaration, topLevel: boolean): ImportEmit {
  if (!topLevel || node.importKind === 'type') return 'never';
  if (node.specifiers.length === 0) return hasBraces(source, node) ? 'type-names' : 'always';
  const values = node.specifiers
    .filter((specifier) => specifier.type !== 'ImportSpecifier' || specifier.importKind !== 'type')
    .map((specifier) => textOf(source, specifier.local));
  return values.length === 0 ? 'type-names' : { values };
}

/** `import {} from 'm'` (no names: kept only with every import) against `import 'm'`. */
function hasBraces(source: Source, node: ImportDeclaration): boolean {
  return source.text.slice(node.start, node.source.start).includes('{');
}

export function importEqualsEmit(
  source: Source,
  node: TSImportEqualsDeclaration,
  topLevel: boolean,
  exported: boolean,
): ImportEmit {
  if (!topLevel || node.importKind === 'type') return 'never';
  return exported ? 'always' : { values: [textOf(source, node.id)] };
}

export function reexportEmit(
  node: ExportNamedDeclaration | ExportAllDeclaration,
  topLevel: boolean,
): ImportEmit {
  if (!topLevel || node.exportKind === 'type') return 'never';
  if (node.type === 'ExportAllDeclaration') return 'always';
  return node.specifiers.some((specifier) => specifier.exportKind !== 'type')
    ? 'always'
    : 'type-names';
}

/** An identifier the walk meets: a use of an imported name, a local declaration hiding one, or neither. */
export function recordIdentifier(source: Source, id: Identifier): void {
  const { uses } = source.facts;
  const { name } = id;
  const { ancestors } = source;
  const parent = ancestors.at(-1);
  if (parent === undefined) return;
  if (name === 'eval' || name === 'Function') recordCodeAsValue(source, id, parent);
  if (!uses.watches(name)) return;
  const declared = declarationScope(ancestors, id);
  if (declared !== undefined) {
    if (declared !== null) uses.shadow(name, { start: declared.start, end: declared.end });
    return;
  }
  if (isReference(id, parent) && isValuePosition(ancestors, id)) uses.value(name, id.start);
}

/** Nodes that hand on the value inside them: `(eval)`, `(0, eval)`, `eval as F`. */
const WRAPPERS = new Set(['ParenthesizedExpression', 'SequenceExpression', 'TSAsExpression']);

/**
 * `eval` or `Function` handed on as a value (`const e = eval`, `[eval][0](s)`,
 * `Reflect.construct(Function, [s])`) builds code from a string as a call of it does. A call
 * (recordCall's), `Function.prototype`, `typeof` and `instanceof Function` do not.
 */
function recordCodeAsValue(source: Source, id: Identifier, parent: Node): void {
  const { ancestors } = source;
  let at = ancestors.length - 1;
  let child: Node = id;
  for (
    let node = ancestors[at];
    node !== undefined && WRAPPERS.has(node.type);
    node = ancestors[--at]
  )
    child = node;
  const holder = ancestors[at];
  const called =
    (holder?.type === 'CallExpression' || holder?.type === 'NewExpression') &&
    holder.callee === child;
  const inspected =
    parent.type === 'MemberExpression' ||
    parent.type === 'UnaryExpression' ||
    (parent.type === 'BinaryExpression' && parent.operator === 'instanceof');
  if (called || inspected || !isReference(id, parent) || !isValuePosition(ancestors, id)) return;
  if (declarationScope(ancestors, id) !== undefined) return;
  source.facts.addReflection(id.name === 'eval' ? 'eval' : 'new-function', id.start);
}

/** A JSX tag's name (`<A>`, `<A.b>`), which TypeScript resolves as a value, lower case included. */
export function recordJsxName(source: Source, id: JSXIdentifier): void {
  const { uses } = source.facts;
  if (!uses.watches(id.name)) return;
  const parent = source.ancestors.at(-1);
  const tag =
    ((parent?.type === 'JSXOpeningElement' || parent?.type === 'JSXClosingElement') &&
      parent.name === id) ||
    (parent?.type === 'JSXMemberExpression' && parent.object === id);
  if (tag) uses.value(id.name, id.start);
}

/** A JSX element or fragment: the classic runtime calls its factory there. */
export function recordJsxElement(source: Source, node: Node): void {
  source.facts.uses.jsxElement(node.start);
}

const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'TSDeclareFunction',
  'TSEmptyBodyFunctionExpression',
]);
const BLOCKS = new Set(['BlockStatement', 'TSModuleBlock', 'SwitchStatement', 'StaticBlock']);
const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement']);
const PATTERNS = new Set(['ObjectPattern', 'ArrayPattern', 'AssignmentPattern', 'RestElement']);

/**
 * For a value declaration's name, the node whose range it is visible over (null at the top
 * level, where it cannot hide an import); undefined when `id` declares no value.
 */
export function declarationScope(
  ancestors: readonly Node[],
  id: Identifier,
): Node | null | undefined {
  let at = ancestors.length - 1;
  let child: Node = id;
  // Up through a destructuring pattern to what holds it.
  for (;;) {
    const node = ancestors[at];
    if (node === undefined) return undefined;
    if (node.type === 'Property' && ancestors[at - 1]?.type === 'ObjectPattern') {
      if (fieldsOf(node).value !== child) return undefined;
    } else if (node.type === 'AssignmentPattern') {
      if (node.left !== child) return undefined;
    } else if (!PATTERNS.has(node.type)) break;
    child = node;
    at--;
  }
  const holder = ancestors[at];
  if (holder === undefined) return undefined;
  const named = fieldsOf(holder).id === child;
  switch (holder.type) {
    case 'VariableDeclarator':
      return named ? variableScope(ancestors, at) : undefined;
    case 'TSParameterProperty':
      return holder.parameter === child ? (ancestors[at - 1] ?? null) : undefined;
    case 'CatchClause':
      return holder.param === child ? holder : undefined;
    case 'FunctionDeclaration':
    case 'TSDeclareFunction':
    case 'ClassDeclaration':
    case 'TSEnumDeclaration':
      if (named) return blockOf(ancestors, at);
      break;
    case 'FunctionExpression':
    case 'ClassExpression':
      if (named) return holder;
      break;
  }
  if (FUNCTIONS.has(holder.type) && (holder as { params?: unknown[] }).params?.includes(child))
    return holder;
  return undefined;
}

/** Where a variable is visible: its block (its loop), or its function for `var`. */
function variableScope(ancestors: readonly Node[], declarator: number): Node | null {
  const declaration = ancestors[declarator - 1];
  const owner = ancestors[declarator - 2];
  if (declaration?.type !== 'VariableDeclaration' || owner === undefined) return null;
  if (declaration.kind !== 'var') {
    return LOOPS.has(owner.type) ? owner : blockOf(ancestors, declarator - 1);
  }
  for (let at = declarator - 2; at >= 0; at--) {
    const node = ancestors[at];
    if (node !== undefined && FUNCTIONS.has(node.type)) return node;
  }
  return null;
}

/** The block (or the top level: null) the statement at `index` belongs to. */
function blockOf(ancestors: readonly Node[], index: number): Node | null {
  for (let at = index - 1; at >= 0; at--) {
    const node = ancestors[at];
    if (node !== undefined && BLOCKS.has(node.type)) return node;
  }
  return null;
}

/** Whether `id` refers to something by its name, rather than naming a member, label or declaration. */
export function isReference(id: Identifier, parent: Node): boolean {
  const fields = fieldsOf(parent);
  switch (parent.type) {
    case 'MemberExpression':
      return parent.computed || parent.property !== id;
    case 'TSQualifiedName':
      return parent.left === id;
    // A local `export { a as b }` is recordLocalExport's.
    case 'ExportSpecifier':
    case 'ImportSpecifier':
    case 'ImportDefaultSpecifier':
    case 'ImportNamespaceSpecifier':
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
    case 'MetaProperty':
    case 'TSTypeParameter':
    case 'TSNamedTupleMember':
    case 'ImportAttribute':
    case 'ExportAllDeclaration':
      return false;
  }
  if (fields.key === id) return fields.computed === true;
  return fields.id !== id;
}

/** A local `export { a as b }`: a use of `a`, unless written `type` or re-exported. */
export function recordLocalExport(source: Source, node: ExportNamedDeclaration): void {
  if (node.source !== null || node.exportKind === 'type') return;
  const { uses } = source.facts;
  for (const specifier of node.specifiers) {
    const { local } = specifier;
    if (specifier.exportKind === 'type' || local.type !== 'Identifier') continue;
    if (uses.watches(local.name) && !inDeclaration(source.ancestors))
      uses.value(local.name, local.start);
  }
}

const TYPES = new Set([
  'TSTypeAnnotation',
  'TSTypeReference',
  'TSTypeQuery',
  'TSTypeLiteral',
  'TSUnionType',
  'TSIntersectionType',
  'TSFunctionType',
  'TSConstructorType',
  'TSArrayType',
  'TSTupleType',
  'TSNamedTupleMember',
  'TSOptionalType',
  'TSRestType',
  'TSConditionalType',
  'TSInferType',
  'TSParenthesizedType',
  'TSTypeOperator',
  'TSIndexedAccessType',
  'TSMappedType',
  'TSLiteralType',
  'TSTemplateLiteralType',
  'TSImportType',
  'TSTypePredicate',
  'TSTypeParameterInstantiation',
  'TSTypeParameterDeclaration',
  'TSTypeParameter',
  'TSClassImplements',
  'TSInterfaceHeritage',
  // Members of interfaces and type literals: their types and parameters (a computed key is
  // looked at first: a value).
  'TSPropertySignature',
  'TSMethodSignature',
  'TSCallSignatureDeclaration',
  'TSConstructSignatureDeclaration',
  'TSIndexSignature',
]);

/**
 * Whether a reference is to a value that the emit keeps: not inside a type or a heritage
 * clause but a class's `extends`, except inside a computed key (`{ [a.key]: string }`), and
 * not in an ambient context (anything under a `declare`).
 */
export function isValuePosition(ancestors: readonly Node[], id: Identifier): boolean {
  let value = true;
  let settled = false;
  let child: Node = id;
  for (let at = ancestors.length - 1; at >= 0; at--) {
    const node = ancestors[at];
    if (node === undefined) break;
    const fields = fieldsOf(node);
    if (fields.declare === true) return false;
    if (!settled) {
      if (fields.computed === true && fields.key === child) settled = true;
      else if (TYPES.has(node.type)) {
        value = false;
        settled = true;
      }
    }
    child = node;
  }
  return value;
}

export function inDeclaration(ancestors: readonly Node[]): boolean {
  return ancestors.some((node) => fieldsOf(node).declare === true);
}
