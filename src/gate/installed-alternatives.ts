/**
 * Packages that do the same job: when a change adds one while another of its group is already
 * a dependency, the gate suggests the installed one. Kept to well-known, interchangeable groups.
 */
const SAME_JOB: readonly (readonly string[])[] = [
  ['axios', 'got', 'node-fetch', 'undici', 'superagent', 'ky', 'request'],
  ['moment', 'dayjs', 'date-fns', 'luxon'],
  ['chalk', 'picocolors', 'kleur', 'colorette', 'ansi-colors'],
  ['commander', 'yargs', 'meow', 'minimist', 'cac', 'sade'],
  ['lodash', 'underscore', 'ramda', 'remeda'],
  ['winston', 'pino', 'bunyan', 'loglevel'],
  ['express', 'koa', 'fastify', 'hapi', '@hapi/hapi'],
  ['jest', 'vitest', 'mocha', 'ava'],
  ['yaml', 'js-yaml'],
  ['ajv', 'joi', 'yup', 'zod', 'valibot'],
  ['uuid', 'nanoid'],
  ['glob', 'fast-glob', 'globby', 'tinyglobby'],
  ['minimatch', 'picomatch', 'micromatch'],
  ['requests', 'httpx', 'urllib3', 'aiohttp'],
];

/** Jobs the runtime already does, for dependencies that only wrap them. */
const BUILT_IN: Readonly<Record<string, string>> = {
  'node-fetch': 'the built-in fetch (Node 18+)',
  axios: 'the built-in fetch (Node 18+)',
  uuid: 'crypto.randomUUID()',
  'left-pad': 'String.prototype.padStart',
  'object-assign': 'Object.assign',
  'array-flatten': 'Array.prototype.flat',
  'is-number': 'Number.isFinite',
  rimraf: 'fs.rm with { recursive: true }',
  mkdirp: 'fs.mkdir with { recursive: true }',
};

/** What already covers a new dependency: an installed package of the same group, or a built-in. */
export function installedAlternative(
  added: string,
  installed: ReadonlySet<string>,
): string | undefined {
  const group = SAME_JOB.find((members) => members.includes(added));
  const peer = group?.find((member) => member !== added && installed.has(member));
  if (peer !== undefined) return `${peer} (already a dependency)`;
  return BUILT_IN[added];
}
