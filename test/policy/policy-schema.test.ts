import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';

interface Node {
  type?: string;
  description?: string;
  additionalProperties?: unknown;
  properties?: Record<string, Node>;
  items?: Node;
  definitions?: Record<string, Node>;
  $ref?: string;
}

const schema: Node = JSON.parse(readFileSync('schemas/policy.schema.json', 'utf8'));

/** Every node of the schema with its path, following properties, items and definitions. */
function* walk(node: Node, path: string): Generator<[string, Node]> {
  yield [path, node];
  for (const [key, child] of Object.entries(node.properties ?? {}))
    yield* walk(child, `${path}.${key}`);
  if (node.items) yield* walk(node.items, `${path}[]`);
  for (const [key, child] of Object.entries(node.definitions ?? {})) yield* walk(child, `#${key}`);
}

function isEntrySchema(node: Node): boolean {
  const entry = node.additionalProperties;
  return typeof entry === 'object' && entry !== null && '$ref' in entry;
}

it('closes every mapping: unknown keys are errors at every level', () => {
  const open = [...walk(schema, 'policy')]
    .filter(([, node]) => node.type === 'object')
    // A section whose keys the user names (`modules`) takes only entries of one closed shape.
    .filter(([, node]) => node.additionalProperties !== false && !isEntrySchema(node))
    .map(([path]) => path);
  expect(open).toEqual([]);
});

it('describes every key, for editors and `aureus policy show`', () => {
  const undocumented = [...walk(schema, 'policy')]
    .filter(([path]) => !path.endsWith('[]'))
    // Only a severity may lean on its shared definition: it means the same everywhere.
    .filter(([, node]) => node.description === undefined && node.$ref !== '#/definitions/severity')
    .map(([path]) => path);
  expect(undocumented).toEqual([]);
});

it('covers every section of the design', () => {
  expect(Object.keys(schema.properties ?? {})).toEqual([
    'version',
    'project',
    'budgets',
    'forbidden_patterns',
    'modules',
    'pricing',
    'permissions',
    'cost_thresholds',
    'simplification',
    'model_provider',
    'integrations',
    'memory',
    'learning',
    'paths',
  ]);
});
