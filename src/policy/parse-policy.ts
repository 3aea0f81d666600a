import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isScalar,
  LineCounter,
  Parser,
  parseDocument,
  visit,
} from 'yaml';
import type { JsonObject } from '../model/json.js';
import { CURRENT_POLICY_VERSION, type Policy } from '../model/policy.js';
import { checkPolicySchema } from './check-policy-schema.js';
import { crossFieldProblems } from './cross-field-checks.js';
import { describe, explainSchemaViolations } from './explain-schema-violations.js';
import { globProblems } from './glob-matcher.js';
import { type YamlLocator, yamlLocator } from './locate-in-yaml.js';
import type { PolicyProblem } from './policy-problem.js';
import { yamlProblems, yamlScalarProblems, yamlTagProblems } from './yaml-problems.js';

export type PolicyParse =
  | { readonly ok: true; readonly policy: Policy }
  | { readonly ok: false; readonly problems: readonly PolicyProblem[] };

/**
 * Billion-laughs protection: a policy has no reason for more than a handful of aliases, and the
 * `yaml` library counts expanded nodes against this bound instead of expanding them.
 */
const MAX_ALIAS_COUNT = 100;

/**
 * Parses and validates the text of a policy file. Pure: the caller reads the file. Returns the
 * effective policy (defaults filled) or every problem found, each with file:line:column and a hint.
 */
export function parsePolicy(text: string, file: string): PolicyParse {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
    // YAML 1.2's core schema whatever a `%YAML 1.1` line asks for: one reading of every value.
    schema: 'core',
  });
  // Every tag is refused below, the ones the parser resolves and the ones it cannot alike.
  const syntax = [...document.errors, ...document.warnings].filter(
    (error) => error.code !== 'TAG_RESOLVE_FAILED',
  );
  // The token tree once more, for what the document forgets: where tags are, and how YAML 1.1
  // would read each value.
  const tokens = [...new Parser().parse(text)];
  const tags = yamlTagProblems(tokens, lineCounter, file);
  if (syntax.length > 0 || tags.length > 0) {
    return failed([...yamlProblems(syntax, text, lineCounter, file), ...tags]);
  }

  const locate = yamlLocator(document, lineCounter);
  const problem = (path: readonly string[], message: string, hint: string): PolicyParse => {
    const { line, column } = locate.valueAt(path);
    return failed([{ file, line, column, message, hint }]);
  };
  if (document.contents === null) {
    return problem(
      [],
      'the policy file has no settings, only comments or blank lines.',
      'write at least "version: 1" (`aureus policy show` prints every setting with its default).',
    );
  }
  if (!isMap(document.contents)) {
    return problem(
      [],
      `the policy must be a mapping of keys such as "version: 1", not ${kindOf(document)}.`,
      'start the file with "version: 1" and write each section as "name:" with its keys indented below.',
    );
  }
  const unresolved = findAlias(
    document,
    lineCounter,
    (alias) => alias.resolve(document) === undefined,
  );
  if (unresolved !== undefined) {
    return failed([
      {
        file,
        ...unresolved,
        message: 'this alias refers to an anchor that is not defined before it.',
        hint: 'define the anchor (&name) before the alias (*name), or write the value out.',
      },
    ]);
  }

  const values = yamlScalarProblems(document, tokens, lineCounter, file);
  if (values.length > 0) return failed(values);

  const data = toPlainData(document);
  if (data === undefined) {
    const at = findAlias(document, lineCounter, () => true) ?? { line: 1, column: 1 };
    return failed([
      {
        file,
        ...at,
        message: `the policy expands to more than ${MAX_ALIAS_COUNT} aliased nodes (an alias bomb).`,
        hint: 'write the values out instead of nesting aliases (*name) of aliases.',
      },
    ]);
  }

  const versioned = readVersion(data, locate, file);
  if (!versioned.ok) return versioned;

  const schema = checkPolicySchema(versioned.document);
  if (!schema.valid) {
    return failed(explainSchemaViolations(schema.violations, versioned.document, locate, file));
  }
  const settings = [
    ...crossFieldProblems(schema.policy, locate, file),
    ...globProblems(schema.policy, locate, file),
  ];
  if (settings.length > 0) return failed(settings);
  return { ok: true, policy: schema.policy };
}

function readVersion(
  data: JsonObject,
  locate: YamlLocator,
  file: string,
): { ok: true; document: JsonObject } | { ok: false; problems: readonly PolicyProblem[] } {
  const fail = (message: string, hint: string) => {
    const { line, column } = locate.valueAt(['version']);
    return failed([{ file, line, column, message, hint }]);
  };
  const version = data.version;
  if (version === undefined) {
    return fail(
      'the policy has no "version".',
      `add "version: ${CURRENT_POLICY_VERSION}" as the first line.`,
    );
  }
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    return fail(
      `version must be a whole number, not ${describe(version)}.`,
      `write "version: ${CURRENT_POLICY_VERSION}" (without quotes).`,
    );
  }
  if (version > CURRENT_POLICY_VERSION) {
    return fail(
      `this policy is written for policy format version ${version}, and this AUREUS reads versions up to ${CURRENT_POLICY_VERSION}.`,
      'install a newer AUREUS (from its repository, as you installed this one), or write the policy in a version it reads.',
    );
  }
  if (version < 1) {
    return fail(
      `policy format version ${version} does not exist; the first is version 1.`,
      `write "version: ${CURRENT_POLICY_VERSION}".`,
    );
  }
  return { ok: true, document: migratePolicy(data, version) };
}

function toPlainData(document: Document): JsonObject | undefined {
  try {
    const data: unknown = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return isJsonObject(data) ? data : {};
  } catch (error) {
    if (error instanceof ReferenceError) return undefined;
    throw error;
  }
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Position of the first alias that `matches`, in document order. */
function findAlias(
  document: Document,
  lineCounter: LineCounter,
  matches: (alias: Alias) => boolean,
): { line: number; column: number } | undefined {
  let offset: number | undefined;
  visit(document, {
    Alias(_key, alias) {
      if (!matches(alias)) return undefined;
      offset = alias.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function kindOf(document: Document): string {
  const contents = document.contents;
  if (isScalar(contents)) return `the single value ${describe(contents.value)}`;
  if (isAlias(contents)) return 'an alias';
  return 'a list';
}

function failed(problems: readonly PolicyProblem[]): {
  ok: false;
  problems: readonly PolicyProblem[];
} {
  const sorted = [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, problems: sorted };
}

/** Rewrites a policy document of version `from` into version `from + 1`. */
export type PolicyMigration = (document: JsonObject) => JsonObject;

/**
 * Migrations by the version they start from. Version 1 is the first policy format, so there is
 * none yet; when version 2 arrives, `1: (v1) => v2` goes here and old files keep loading.
 */
export const POLICY_MIGRATIONS: Readonly<Record<number, PolicyMigration>> = {};

/** Brings a document of an older version up to the current one, one step at a time. */
export function migratePolicy(
  document: JsonObject,
  from: number,
  migrations: Readonly<Record<number, PolicyMigration>> = POLICY_MIGRATIONS,
  to: number = CURRENT_POLICY_VERSION,
): JsonObject {
  let migrated = document;
  for (let version = from; version < to; version++) {
    const step = migrations[version];
    if (step === undefined) {
      throw new Error(`no migration from policy version ${version} to ${version + 1}`);
    }
    migrated = { ...step(migrated), version: version + 1 };
  }
  return migrated;
}
