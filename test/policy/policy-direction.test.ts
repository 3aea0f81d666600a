import { describe, expect, it } from '@jest/globals';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { classifyPolicyChange, SETTING_DIRECTIONS } from '../../src/policy/policy-direction.js';
import { policySchema } from '../../src/policy/policy-schema.generated.js';
import type { SchemaNode } from '../../src/policy/schema-node.js';

function leafPaths(node: SchemaNode, path: string): string[] {
  const resolved =
    node.$ref === undefined
      ? node
      : policySchema.definitions?.[node.$ref.replace('#/definitions/', '')];
  if (resolved?.properties === undefined) return [path];
  return Object.entries(resolved.properties).flatMap(([key, child]) =>
    leafPaths(child, path === '' ? key : `${path}.${key}`),
  );
}

function policy(yaml: string) {
  const parsed = parsePolicy(`version: 1\n${yaml}`, 'p');
  if (!parsed.ok) throw new Error(`fixture policy does not parse: ${parsed.problems[0]?.message}`);
  return parsed.policy;
}

describe('the direction of a policy change', () => {
  it('classifies every setting of the policy schema, and only those', () => {
    const schemaPaths = leafPaths(policySchema, '').sort();
    const unclassified = schemaPaths.filter((path) => !SETTING_DIRECTIONS.has(path));
    expect(unclassified).toEqual([]);
    expect([...SETTING_DIRECTIONS.keys()].sort()).toEqual(schemaPaths);
  });

  it('calls raised budgets, lowered severities, added test globs and fewer core paths loosening', () => {
    const after = policy(
      [
        'budgets:\n  change:\n    block: 5000',
        'forbidden_patterns:\n  god_class:\n    severity: warn',
        'paths:\n  tests: ["spec/**"]\n  core: []',
        'integrations:\n  incomplete_conclusion: neutral',
      ].join('\n'),
    );
    const { loosens, tightens } = classifyPolicyChange(defaultPolicy(), after);
    expect(loosens).toEqual(
      expect.arrayContaining([
        'budgets.change.block: 500 → 5000',
        'forbidden_patterns.god_class.severity: "error" → "warn"',
        'integrations.incomplete_conclusion: "failure" → "neutral"',
      ]),
    );
    expect(loosens.some((line) => line.startsWith('paths.tests:'))).toBe(true);
    expect(tightens).toEqual([]);
  });

  it('calls a lowered budget, a raised price and counting type-only imports tightening', () => {
    const after = policy(
      [
        'budgets:\n  change:\n    warn: 100\n    block: 200',
        'pricing:\n  file: 50',
        'forbidden_patterns:\n  circular_dependency:\n    count_type_only_imports: true',
      ].join('\n'),
    );
    const { loosens, tightens } = classifyPolicyChange(defaultPolicy(), after);
    expect(loosens).toEqual([]);
    expect(tightens).toContain('budgets.change.block: 500 → 200');
    expect(tightens.length).toBe(4);
  });
});
