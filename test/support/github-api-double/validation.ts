import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { _, Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { JsonSchema, Operation } from './fixture.js';

// ajv-formats and ajv's standalone are CommonJS; under NodeNext their default import is the
// module object.
const addFormats = addFormatsModule.default;
const standaloneCode = standaloneCodeModule.default;

/** GitHub's own format for `owner/name` (pulls/create's head_repo). */
const REPO_NWO = /^[A-Za-z0-9-_.]+\/[A-Za-z0-9-_.]+$/;

/**
 * What a stored validator's `require("…")` of its formats gets: the formats this file's ajv
 * instances have (ajv-formats' full set and GitHub's `repo.nwo`), the very same objects.
 */
const FORMATS_MODULE = 'github-api-double:formats';
const requireFromHere = createRequire(import.meta.url);
function requireForValidator(name: string): unknown {
  return name === FORMATS_MODULE ? { ...fullFormats, 'repo.nwo': REPO_NWO } : requireFromHere(name);
}

/**
 * Unknown keywords are errors (so a fixture the double cannot honour fails loudly); the OpenAPI
 * schemas' loose `required` lists and type unions inside `anyOf` are GitHub's, not ours to fix.
 */
const STRICTNESS = {
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  allErrors: true,
} as const;

function makeAjv(options: { coerceTypes: boolean }): Ajv {
  const ajv = new Ajv({
    ...STRICTNESS,
    coerceTypes: options.coerceTypes,
    // One validating function per shared subschema instead of copies inlined everywhere.
    inlineRefs: false,
    // The generated source is kept (storedValidator); its formats are required by name.
    code: { source: true, formats: _`require(${FORMATS_MODULE})` },
  });
  addFormats(ajv);
  ajv.addFormat('repo.nwo', REPO_NWO);
  return ajv;
}

type SchemaNode = { [keyword: string]: unknown };

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fixture inlines every `$ref`, so a pull request carries the same repository schema twice
 * and users a dozen times; ajv compiles each copy. Moving object schemas that occur more than
 * once into `$defs` cuts `pulls/get` from about 600 ms to under 200 ms of compiling.
 */
function shareRepeatedSubschemas(schema: JsonSchema): JsonSchema {
  if (!isNode(schema)) return schema;
  const counts = new Map<string, number>();
  const count = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(count);
    if (!isNode(node)) return;
    if (isNode(node.properties)) {
      const key = JSON.stringify(node);
      if (key.length > 400) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    Object.values(node).forEach(count);
  };
  count(schema);
  const names = new Map<string, string>();
  for (const [key, seen] of counts) if (seen > 1) names.set(key, `shared${names.size}`);
  if (names.size === 0) return schema;
  const defs: Record<string, unknown> = {};
  const rebuild = (node: unknown, isDefinition: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => rebuild(item, false));
    if (!isNode(node)) return node;
    const name = isNode(node.properties) ? names.get(JSON.stringify(node)) : undefined;
    if (name !== undefined && !isDefinition) {
      if (!(name in defs)) {
        defs[name] = true; // claimed before recursing; the real schema replaces it below
        defs[name] = rebuild(node, true);
      }
      return { $ref: `#/$defs/${name}` };
    }
    const out: SchemaNode = {};
    for (const [keyword, value] of Object.entries(node)) {
      out[keyword] =
        keyword === 'properties' && isNode(value)
          ? Object.fromEntries(Object.entries(value).map(([p, sub]) => [p, rebuild(sub, false)]))
          : keyword === 'enum' || keyword === 'required' || keyword === 'default'
            ? value
            : rebuild(value, false);
    }
    return out;
  };
  const root = rebuild(schema, true);
  return isNode(root) ? { ...root, $defs: defs } : schema;
}

// URL values are strings: `?per_page=50` and `/issues/7/` must coerce to the schema's integer.
export const paramsAjv: AjvKind = { ajv: makeAjv({ coerceTypes: true }), name: 'params' };
// Bodies and responses are JSON: `"7"` where an integer is due is a real mistake.
export const jsonAjv: AjvKind = { ajv: makeAjv({ coerceTypes: false }), name: 'json' };
const cache = new Map<string, ValidateFunction>();

/**
 * Where the validators ajv generated are kept for the other test files of this run: the run's
 * own folder of caches (test/support/cache-folders.mjs), none outside a jest run. Compiling
 * GitHub's large response schemas (a pull request, a check run) costs each file seconds of CPU;
 * the stored source is the code ajv generated for the same schema and options, byte for byte.
 */
function storeFolder(): string | undefined {
  const caches = process.env.AUREUS_TEST_CACHES;
  return caches === undefined || caches === '' ? undefined : join(caches, 'github-api-double');
}

const AJV_VERSION: unknown = requireFromHere('ajv/package.json').version;

function compiled(key: string, kind: AjvKind, schema: JsonSchema): ValidateFunction {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const validate = storedValidator(kind, shareRepeatedSubschemas(schema), storeFolder());
  cache.set(key, validate);
  return validate;
}

interface AjvKind {
  readonly ajv: Ajv;
  readonly name: string;
}

/** The validating function of `schema`: read from `folder` when stored there, else compiled and stored. */
export function storedValidator(
  { ajv, name }: AjvKind,
  schema: JsonSchema,
  folder: string | undefined,
): ValidateFunction {
  const file =
    folder === undefined
      ? undefined
      : join(
          folder,
          `${createHash('sha256')
            .update(JSON.stringify([AJV_VERSION, name, STRICTNESS, schema]))
            .digest('hex')}.cjs`,
        );
  let source: string | undefined;
  if (file !== undefined) {
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      source = undefined;
    }
  }
  if (source === undefined) {
    source = standaloneCode(ajv, ajv.compile(schema));
    if (folder !== undefined && file !== undefined) {
      // Written whole, then renamed: the other worker reads a complete file or none.
      mkdirSync(folder, { recursive: true });
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, source);
      renameSync(partial, file);
    }
  }
  return evaluate(source);
}

/** Runs the CommonJS module ajv's standalone code is, and returns its validating function. */
function evaluate(source: string): ValidateFunction {
  const module: { exports: unknown } = { exports: {} };
  new Function('require', 'module', 'exports', source)(requireForValidator, module, module.exports);
  const validate: unknown = module.exports;
  if (typeof validate !== 'function') throw new Error('ajv standalone code exported no function');
  return validate as ValidateFunction;
}

/** GitHub words its 422s as `"head_sha" wasn't supplied.` and `For 'properties/x', 5 is not a string.` */
function describe(errors: readonly ErrorObject[]): string[] {
  return errors.map((error) => {
    if (error.keyword === 'required') {
      const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
      return `"${missing}" wasn't supplied.`;
    }
    const path = error.instancePath === '' ? '' : error.instancePath.slice(1);
    const pointer = path === '' ? 'body' : `properties/${path.replaceAll('/', '/properties/')}`;
    if (error.keyword === 'type') {
      const type = String((error.params as { type?: unknown }).type);
      return `For '${pointer}', ${JSON.stringify(error.data)} is not ${article(type)} ${type}.`;
    }
    return `For '${pointer}', ${error.message ?? error.keyword}.`;
  });
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

export type RequestCheck =
  | { readonly ok: true; readonly params: Record<string, unknown> }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * Validates path and query parameters (coerced to the schema's types) and the JSON body of one
 * request. `params` holds path and query values together, typed, with the schema's defaults.
 */
export function checkRequest(
  operation: Operation,
  pathParams: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>>,
  body: unknown,
): RequestCheck {
  const problems: string[] = [];
  const params: Record<string, unknown> = {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    properties[parameter.name] = parameter.schema;
    if (parameter.required) required.push(parameter.name);
    const value = parameter.in === 'path' ? pathParams[parameter.name] : query[parameter.name];
    if (value !== undefined) params[parameter.name] = value;
  }
  const validateParams = compiled(`${operation.operationId} params`, paramsAjv, {
    type: 'object',
    properties,
    required,
  });
  if (!validateParams(params)) problems.push(...describe(validateParams.errors ?? []));
  for (const parameter of operation.parameters) {
    const schema = parameter.schema;
    if (params[parameter.name] === undefined && typeof schema === 'object' && 'default' in schema) {
      params[parameter.name] = schema.default;
    }
  }

  const requestBody = operation.requestBody;
  if (requestBody === null) {
    // GitHub ignores a body on a GET; so does the double.
  } else if (body === undefined) {
    if (requestBody.required) problems.push('A request body is required.');
  } else if (requestBody.schema !== null) {
    const validateBody = compiled(`${operation.operationId} body`, jsonAjv, requestBody.schema);
    if (!validateBody(body)) problems.push(...describe(validateBody.errors ?? []));
  }
  return problems.length === 0 ? { ok: true, params } : { ok: false, problems };
}

/**
 * Why a response the double is about to send would not match the operation's response schema,
 * or undefined when it matches (or the fixture has no schema for that status).
 */
export function checkResponse(
  operation: Operation,
  status: number,
  body: unknown,
): string | undefined {
  const key = String(status);
  if (!(key in operation.responses)) return undefined;
  const schema = operation.responses[key];
  if (schema === null || schema === undefined) {
    return body === undefined ? undefined : `status ${status} has no body in the description`;
  }
  const validate = compiled(`${operation.operationId} ${key}`, jsonAjv, schema);
  if (validate(body)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword}`)
    .join('; ');
}
