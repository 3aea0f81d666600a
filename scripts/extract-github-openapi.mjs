#!/usr/bin/env node
/**
 * Writes test/fixtures/github-openapi/operations.json: the few GitHub REST operations AUREUS
 * calls, cut out of GitHub's published OpenAPI description (@octokit/openapi). The package is
 * about 385 MB unpacked, so tests never depend on it: this script packs it into a temp folder,
 * extracts the one description file it needs with `tar`, and inlines every `$ref` so the test
 * double can hand each schema to ajv as it is.
 *
 * Usage: npm run generate:github-openapi
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = '@octokit/openapi@23.0.2';
// The description with `$ref`s left in place is 13 MB, the dereferenced one 73 MB; resolving the
// references here lets us cut recursion where we choose instead of where the package did.
const MEMBER = 'package/generated/api.github.com.json';

/** GitHub operationIds, in the order the fixture lists them. */
const OPERATIONS = [
  'issues/get',
  'issues/list-comments',
  'issues/create-comment',
  'issues/update-comment',
  'issues/get-comment',
  'issues/create',
  'issues/update',
  'issues/list-events',
  'reactions/create-for-issue-comment',
  'checks/create',
  'checks/update',
  'checks/list-for-ref',
  'pulls/get',
  'pulls/create',
  'pulls/list',
  'pulls/list-files',
  'pulls/create-review',
  'pulls/list-reviews',
  'pulls/create-review-comment',
  'pulls/list-review-comments',
  'git/get-blob',
  'git/get-tree',
  'git/get-ref',
  'git/list-matching-refs',
  'git/create-ref',
  'git/update-ref',
  'git/create-blob',
  'git/create-tree',
  'git/create-commit',
  'git/get-commit',
  'repos/get',
  'repos/get-content',
  'repos/create-or-update-file-contents',
  'repos/get-collaborator-permission-level',
  'repos/get-branch-rules',
  // GitHub's own description names this one `repos/compare-commits-with-basehead`
  // (`/compare/{basehead}`); `repos/compare-commits` (`/compare/{base}...{head}`) is the Octokit
  // extension that `octokit.rest.repos.compareCommits` calls. Both send the same URL.
  'repos/compare-commits',
  'repos/get-commit',
  'repos/list-commits',
  'repos/list-pull-requests-associated-with-commit',
  'apps/get-authenticated',
  'apps/create-installation-access-token',
  'apps/get-repo-installation',
  'users/get-by-username',
  'actions/create-workflow-dispatch',
  'actions/cancel-workflow-run',
  'actions/list-workflow-runs',
  'actions/get-workflow-run',
];

/** Keys that document rather than constrain; dropping them keeps the fixture small. */
const DROPPED_KEYS = new Set([
  'description',
  'example',
  'examples',
  'externalDocs',
  'discriminator',
  'xml',
  'title',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'test', 'fixtures', 'github-openapi');

function loadDescription() {
  const work = mkdtempSync(join(tmpdir(), 'aureus-openapi-'));
  try {
    execFileSync('npm', ['pack', PACKAGE, '--pack-destination', work, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack ${PACKAGE} left no tarball`);
    // tar streams through the gzip and writes only the one member asked for.
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, MEMBER]);
    return JSON.parse(readFileSync(join(work, MEMBER), 'utf8'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function lookup(description, ref) {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node = description;
  for (const key of ref.slice(2).split('/')) {
    node = node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')];
    if (node === undefined) throw new Error(`unresolvable $ref ${ref}`);
  }
  return node;
}

/**
 * Inlines `$ref`s and turns OpenAPI 3.0 schema dialect into plain JSON Schema (`nullable` becomes
 * a `null` type). A `$ref` already being expanded on the current path is recursion: it becomes
 * `{}` (anything), which is the only safe cut that never rejects a real GitHub answer.
 */
function toJsonSchema(description, schema, expanding) {
  if (Array.isArray(schema))
    return schema.map((item) => toJsonSchema(description, item, expanding));
  if (schema === null || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    if (expanding.has(schema.$ref)) return { $comment: `recursion cut at ${schema.$ref}` };
    const next = new Set(expanding).add(schema.$ref);
    return toJsonSchema(description, lookup(description, schema.$ref), next);
  }
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYS.has(key) || key.startsWith('x-') || key === 'nullable') continue;
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [
          name,
          toJsonSchema(description, sub, expanding),
        ]),
      );
    } else if (key === 'enum' || key === 'required' || key === 'default' || key === 'const') {
      out[key] = value;
    } else {
      out[key] = toJsonSchema(description, value, expanding);
    }
  }
  if (schema.nullable !== true) return out;
  const combined = 'allOf' in out || 'anyOf' in out || 'oneOf' in out;
  if (typeof out.type === 'string' && !combined) {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function resolve(description, node) {
  return typeof node?.$ref === 'string' ? lookup(description, node.$ref) : node;
}

function jsonSchemaOf(description, content) {
  const schema = content?.['application/json']?.schema;
  return schema === undefined ? null : toJsonSchema(description, schema, new Set());
}

function extract(description) {
  const found = new Map();
  for (const [path, item] of Object.entries(description.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (OPERATIONS.includes(operation?.operationId)) {
        found.set(operation.operationId, { method, path, operation });
      }
    }
  }
  const missing = OPERATIONS.filter((id) => !found.has(id));
  if (missing.length > 0) throw new Error(`operations not in ${PACKAGE}: ${missing.join(', ')}`);
  return OPERATIONS.map((operationId) => {
    const { method, path, operation } = found.get(operationId);
    const parameters = (operation.parameters ?? []).map((raw) => {
      const parameter = resolve(description, raw);
      return {
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true,
        ...(parameter['x-multi-segment'] === true ? { multiSegment: true } : {}),
        schema: toJsonSchema(description, parameter.schema ?? {}, new Set()),
      };
    });
    const body = resolve(description, operation.requestBody);
    const responses = {};
    for (const [status, raw] of Object.entries(operation.responses)) {
      if (!/^2\d\d$/.test(status)) continue;
      responses[status] = jsonSchemaOf(description, resolve(description, raw).content);
    }
    return {
      operationId,
      method: method.toUpperCase(),
      path,
      docsUrl: operation.externalDocs?.url ?? null,
      parameters,
      requestBody:
        body === undefined
          ? null
          : { required: body.required === true, schema: jsonSchemaOf(description, body.content) },
      responses,
    };
  });
}

const description = loadDescription();
const operations = extract(description);
mkdirSync(outDir, { recursive: true });
const fixture = {
  source: `${PACKAGE} ${MEMBER}`,
  openapi: description.openapi,
  descriptionVersion: description.info.version,
  operations,
};
// One operation a line: small on disk, and a regeneration diffs operation by operation.
const text = `${JSON.stringify({ ...fixture, operations: [] }, null, 2).replace(
  '"operations": []',
  `"operations": [\n${operations.map((operation) => `    ${JSON.stringify(operation)}`).join(',\n')}\n  ]`,
)}\n`;
writeFileSync(join(outDir, 'operations.json'), text);
console.log(
  `wrote ${operations.length} operations, ${Math.round(text.length / 1024)} KiB, to ${join(outDir, 'operations.json')}`,
);
