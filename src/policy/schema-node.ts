/** The parts of a JSON Schema node that error messages and suggestions read. */
export interface SchemaNode {
  readonly description?: string;
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  /** The schema of keys the section names itself (`modules`), when it takes any. */
  readonly additionalProperties?: boolean | SchemaNode;
  readonly propertyNames?: SchemaNode;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
  readonly $ref?: string;
  readonly [keyword: string]: unknown;
}

/**
 * The schema node that describes the value at `path`, with `$ref`s into `#/definitions`
 * resolved and the referencing node's own keywords (description, default) kept on top.
 */
export function schemaAt(root: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = resolve(root, root);
  for (const segment of path) {
    if (node === undefined) return undefined;
    const next: SchemaNode | undefined = /^\d+$/.test(segment)
      ? node.items
      : (node.properties?.[segment] ?? namedEntry(node));
    node = next === undefined ? undefined : resolve(root, next);
  }
  return node;
}

function namedEntry(node: SchemaNode): SchemaNode | undefined {
  const entry = node.additionalProperties;
  return typeof entry === 'object' ? entry : undefined;
}

function resolve(root: SchemaNode, node: SchemaNode): SchemaNode {
  const ref = node.$ref;
  if (ref === undefined) return node;
  const name = ref.replace('#/definitions/', '');
  const target = root.definitions?.[name];
  if (target === undefined) return node;
  const { $ref: _ref, ...own } = node;
  return { ...target, ...own };
}

/** Whether a value is of a scalar schema type; a value is never of any other type here. */
const SCALAR_KINDS: ReadonlyMap<string, (value: unknown) => boolean> = new Map([
  ['integer', Number.isInteger],
  ['number', (value: unknown) => typeof value === 'number'],
  ['string', (value: unknown) => typeof value === 'string'],
  ['boolean', (value: unknown) => typeof value === 'boolean'],
]);

/**
 * Whether `value` has the kind of value `node` asks for: its enum or const, its type, or one
 * of its anyOf branches. Ranges, lengths and patterns are not looked at.
 */
export function fitsSchemaKind(root: SchemaNode, node: SchemaNode, value: unknown): boolean {
  const own = resolve(root, node);
  if (own.enum !== undefined) return own.enum.includes(value);
  if (own.const !== undefined) return own.const === value;
  if (own.anyOf !== undefined)
    return own.anyOf.some((branch) => fitsSchemaKind(root, branch, value));
  return SCALAR_KINDS.get(own.type ?? '')?.(value) ?? false;
}
