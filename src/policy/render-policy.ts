import { Document, isMap, isScalar, type YAMLMap } from 'yaml';
import type { Policy } from '../model/policy.js';
import { policySchema } from './policy-schema.generated.js';
import type { SchemaNode } from './schema-node.js';
import { schemaAt } from './schema-node.js';

export type PolicyFormat = 'yaml' | 'json';

/**
 * The effective policy as text. YAML carries each key's description from the schema as a
 * comment, so `aureus policy show` doubles as the reference of every setting and its default.
 * Text that YAML 1.1 would read otherwise (`no`, `on`, `0o17`) is quoted (`compat`), so any
 * YAML reader, 1.1 or 1.2, reads the same values.
 */
export function renderPolicy(policy: Policy, format: PolicyFormat): string {
  if (format === 'json') return `${JSON.stringify(policy, null, 2)}\n`;
  const document = new Document(policy, { compat: 'yaml-1.1' });
  if (isMap(document.contents)) annotate(document.contents, []);
  return document.toString({ lineWidth: 0 });
}

function annotate(map: YAMLMap, path: readonly string[]): void {
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const keyPath = [...path, String(pair.key.value)];
    const schema: SchemaNode | undefined = schemaAt(policySchema, keyPath);
    if (schema?.description) pair.key.commentBefore = ` ${schema.description}`;
    if (isMap(pair.value)) annotate(pair.value, keyPath);
  }
}
