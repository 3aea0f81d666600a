import type { SchemaViolation } from './check-policy-schema.js';
import type { YamlLocator, YamlPosition } from './locate-in-yaml.js';
import type { PolicyProblem } from './policy-problem.js';
import { policySchema } from './policy-schema.generated.js';
import { type SchemaNode, schemaAt } from './schema-node.js';
import { nearest } from './suggest-key.js';

interface Explanation {
  readonly at: YamlPosition;
  readonly message: string;
  readonly hint: string;
}

/**
 * Turns schema violations into problems a person can act on: each points at the offending key
 * or value, says what is wrong in the policy's own terms and how to fix it.
 */
export function explainSchemaViolations(
  violations: readonly SchemaViolation[],
  document: unknown,
  locate: YamlLocator,
  file: string,
): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  const seen = new Set<string>();
  for (const violation of relevant(violations)) {
    const path = pointerToPath(violation.instancePath);
    const explanation = explain(violation, path, valueAt(document, path), locate);
    const key = `${explanation.at.line}:${explanation.at.column}:${explanation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { at, message, hint } = explanation;
    problems.push({ file, line: at.line, column: at.column, message, hint });
  }
  return problems;
}

/**
 * Errors inside the branches of an anyOf restate the anyOf error itself, and a key name's
 * pattern error the propertyNames error: keep those only.
 */
function relevant(violations: readonly SchemaViolation[]): SchemaViolation[] {
  return violations.filter(
    (violation) => !/\/anyOf\/\d+\/|\/propertyNames\//.test(violation.schemaPath),
  );
}

function explain(
  violation: SchemaViolation,
  path: readonly string[],
  value: unknown,
  locate: YamlLocator,
): Explanation {
  const schema = schemaAt(policySchema, path) ?? {};
  const name = displayPath(path);
  const at = locate.valueAt(path);
  const params = violation.params;
  switch (violation.keyword) {
    case 'additionalProperties':
      return unknownKey(path, String(params.additionalProperty), locate);
    case 'required': {
      const key = String(params.missingProperty);
      return {
        at,
        message: `${name} has no "${key}".`,
        hint: `add ${key}${purpose(schemaAt(policySchema, [...path, key]) ?? {})}`,
      };
    }
    case 'propertyNames': {
      const key = String(params.propertyName);
      return {
        at: locate.keyAt(path, key) ?? at,
        message: `${name} has the name ${describe(key)}, which is not allowed.`,
        hint: `rename it${purpose(schema.propertyNames ?? {})}`,
      };
    }
    case 'type':
      return {
        at,
        message: `${name} must be ${typeName(String(params.type))}, not ${describe(value)}.`,
        hint: typeHint(schema),
      };
    case 'enum': {
      const allowed = (schema.enum ?? []).map(String);
      const guess = typeof value === 'string' ? nearest(value, allowed) : undefined;
      return {
        at,
        message: `${name} must be one of ${allowed.join(', ')}; ${describe(value)} is not.`,
        hint: guess ? `write "${guess}".` : `use one of ${allowed.join(', ')}.`,
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {
        at,
        message: `${name} must be ${RANGE_WORDS[violation.keyword]} ${String(params.limit)}, not ${describe(value)}.`,
        hint: `use a value in the allowed range${purpose(schema)}`,
      };
    case 'minLength':
      return { at, message: `${name} must not be empty.`, hint: `write a value${purpose(schema)}` };
    case 'maxLength':
      return {
        at,
        message: `${name} is longer than ${String(params.limit)} characters.`,
        hint: `shorten it${purpose(schema)}`,
      };
    case 'uniqueItems':
      return {
        at: locate.valueAt([...path, String(params.i)]),
        message: `${name} lists the same entry twice (items ${Number(params.j) + 1} and ${Number(params.i) + 1}).`,
        hint: 'remove the repeated entry.',
      };
    case 'minItems':
    case 'maxItems':
      return {
        at,
        message: `${name} must have ${violation.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)} entries.`,
        hint: `${violation.keyword === 'minItems' ? 'add' : 'remove'} entries${purpose(schema)}`,
      };
    case 'pattern':
    case 'anyOf':
    case 'format':
      return {
        at,
        message: `${name} ${formatProblem(path)}, not ${describe(value)}.`,
        hint: formatHint(path),
      };
    default:
      return {
        at,
        message: `${name} ${violation.message}.`,
        hint: `correct the value${purpose(schema)}`,
      };
  }
}

function unknownKey(path: readonly string[], key: string, locate: YamlLocator): Explanation {
  const at = locate.keyAt(path, key) ?? locate.valueAt(path);
  const where = path.length === 0 ? 'at the top level' : `in ${displayPath(path)}`;
  if (path.length === 0 && key === 'extends') {
    return {
      at,
      message:
        '"extends" is not supported: a policy never loads settings from another file or repository.',
      hint: 'copy the settings you need into this file and remove "extends".',
    };
  }
  const allowed = Object.keys(schemaAt(policySchema, path)?.properties ?? {});
  const guess = nearest(key, allowed);
  if (guess) {
    return {
      at,
      message: `unknown key "${key}" ${where}.`,
      hint: `rename it to "${guess}", the nearest key allowed there.`,
    };
  }
  const home = findKeyElsewhere(policySchema, key, []);
  if (home) {
    return {
      at,
      message: `"${key}" does not belong ${where}.`,
      hint: `move it under ${displayPath(home)}.`,
    };
  }
  return {
    at,
    message: `unknown key "${key}" ${where}.`,
    hint: `remove it; the keys allowed ${where} are: ${allowed.join(', ')}.`,
  };
}

/** The section where a key of this name is defined, for keys written at the wrong level. */
function findKeyElsewhere(
  node: SchemaNode,
  key: string,
  path: readonly string[],
): readonly string[] | undefined {
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (name === key) return path;
    const found = findKeyElsewhere(child, key, [...path, name]);
    if (found) return found;
  }
  return undefined;
}

function typeHint(schema: SchemaNode): string {
  if (schema.type === 'object') {
    return 'write its keys indented below it, or delete the line to use the defaults.';
  }
  if (schema.type === 'array') {
    return `write a list, one "- item" per line or [a, b] on one line${example(schema)}.`;
  }
  return `write ${typeName(schema.type ?? 'string')}${example(schema)}.`;
}

function formatProblem(path: readonly string[]): string {
  const last = path.at(-1) ?? '';
  if (last === 'base_url') return 'must be an http(s) URL or empty';
  if (last === 'api_key_env') return 'must be an environment variable name';
  return 'must be a glob relative to the repository root';
}

function formatHint(path: readonly string[]): string {
  const last = path.at(-1) ?? '';
  if (last === 'base_url')
    return 'write an http:// or https:// URL, or "" to use the provider\'s own.';
  if (last === 'api_key_env')
    return 'write the name of an environment variable in capitals, for example ANTHROPIC_API_KEY.';
  return 'write the glob relative to the repository root, with / as separator and no leading /, for example src/**.';
}

function example(schema: SchemaNode): string {
  if (schema.default === undefined) return '';
  return `, for example ${JSON.stringify(schema.default)} (the default)`;
}

function purpose(schema: SchemaNode): string {
  return schema.description ? ` (${lowerFirst(schema.description.replace(/\.$/, ''))}).` : '.';
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** How each of the schema's range keywords reads in a message. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  minimum: 'at least',
  maximum: 'at most',
  exclusiveMinimum: 'more than',
  exclusiveMaximum: 'less than',
};

function typeName(type: string): string {
  const names: Readonly<Record<string, string>> = {
    integer: 'a whole number',
    number: 'a number',
    string: 'text',
    boolean: 'true or false',
    object: 'a mapping of keys',
    array: 'a list',
  };
  return names[type] ?? type;
}

/** How a value reads in a message; long text is cut so a hostile file cannot flood the output. */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}

export function displayPath(path: readonly string[]): string {
  if (path.length === 0) return 'the policy';
  return path.reduce(
    (shown, segment) =>
      /^\d+$/.test(segment) ? `${shown}[${segment}]` : shown ? `${shown}.${segment}` : segment,
    '',
  );
}

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function valueAt(document: unknown, path: readonly string[]): unknown {
  let value = document;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = Object.entries(value).find(([key]) => key === segment)?.[1];
  }
  return value;
}
