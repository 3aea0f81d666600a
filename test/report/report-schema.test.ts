import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { renderJson } from '../../src/report/render-json.js';
import { BLOCK, finding, HUGE, SAMPLES, UNPARSABLE } from './sample-reports.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const schema: unknown = JSON.parse(readFileSync('schemas/report.schema.json', 'utf8'));
const validate = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true }).compile(
  isObject(schema) ? schema : {},
);

function errorsOf(json: string): unknown {
  return validate(JSON.parse(json)) ? [] : validate.errors;
}

/** Every object schema in the tree, with the path to it. */
function objectSchemas(node: Json, path: string): Array<[string, { [key: string]: Json }]> {
  if (Array.isArray(node)) return node.flatMap((child, i) => objectSchemas(child, `${path}/${i}`));
  if (!isObject(node)) return [];
  const here: Array<[string, { [key: string]: Json }]> =
    node.type === 'object' ? [[path, node]] : [];
  return [
    ...here,
    ...Object.entries(node).flatMap(([key, child]) => objectSchemas(child, `${path}/${key}`)),
  ];
}

/**
 * Object schemas paired with the value a complete report holds there (a witness of the type's
 * keys). Of a `oneOf`'s object schemas, the value must match one: a location is lines of a file,
 * or one place in it, with a column.
 */
function keysMatch(schemaNode: Json, value: unknown, path: string): string[] {
  if (!isObject(schemaNode)) return [];
  const options = Array.isArray(schemaNode.oneOf) ? schemaNode.oneOf : [schemaNode];
  const outcomes = options.flatMap((option) => {
    if (!isObject(option)) return [];
    if (Array.isArray(value) && isObject(option.items))
      return [value.flatMap((item) => keysMatch(option.items ?? null, item, `${path}[]`))];
    if (!isObject(value) || !isObject(option.properties)) return [];
    const properties = option.properties;
    const declared = Object.keys(properties).sort().join();
    const required = Array.isArray(option.required) ? [...option.required].sort().join() : '';
    const actual = Object.keys(value).sort().join();
    const here =
      declared === actual && required === actual
        ? []
        : [`${path}: ${declared} / ${required} / ${actual}`];
    return [
      [
        ...here,
        ...Object.keys(value).flatMap((key) =>
          keysMatch(properties[key] ?? null, value[key], `${path}.${key}`),
        ),
      ],
    ];
  });
  return outcomes.find((problems) => problems.length === 0) ?? outcomes.flat();
}

describe('schemas/report.schema.json', () => {
  it.each([...SAMPLES, ['10,000 findings', HUGE] as const])(
    'accepts renderJson of the %s report',
    (_name, report) => {
      expect(errorsOf(renderJson(report))).toEqual([]);
    },
  );

  it('renders JSON.stringify(report, null, 2)', () => {
    expect(renderJson(BLOCK)).toBe(JSON.stringify(BLOCK, null, 2));
  });

  it('rejects unknown keys, at the top and inside', () => {
    expect(errorsOf(JSON.stringify({ ...BLOCK, extra: 1 }))).not.toEqual([]);
    const nested = { ...BLOCK, findings: [{ ...finding(), line: 3 }] };
    expect(errorsOf(JSON.stringify(nested))).not.toEqual([]);
  });

  it('rejects a missing key and a wrong enum value', () => {
    const { reasons: _reasons, ...withoutReasons } = BLOCK;
    expect(errorsOf(JSON.stringify(withoutReasons))).not.toEqual([]);
    expect(errorsOf(JSON.stringify({ ...BLOCK, verdict: 'maybe' }))).not.toEqual([]);
  });

  it('closes every object and describes every key', () => {
    const root: Json = isObject(schema) ? schema : null;
    const objects = objectSchemas(root, '#');
    expect(objects.length).toBeGreaterThan(8);
    for (const [path, node] of objects) {
      expect([path, node.additionalProperties]).toEqual([path, false]);
      const properties = isObject(node.properties) ? node.properties : {};
      for (const [key, property] of Object.entries(properties)) {
        expect([
          `${path}/${key}`,
          isObject(property) && typeof property.description === 'string',
        ]).toEqual([`${path}/${key}`, true]);
      }
    }
  });

  it('declares and requires exactly the keys of Report at every level', () => {
    const root: Json = isObject(schema) ? schema : null;
    expect(keysMatch(root, JSON.parse(renderJson(BLOCK)), 'report')).toEqual([]);
    expect(keysMatch(root, JSON.parse(renderJson(UNPARSABLE)), 'report')).toEqual([]);
  });
});
