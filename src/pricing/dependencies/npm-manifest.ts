import { baseName } from '../../analysis/repository-paths.js';
import { isRecord } from '../../model/json.js';
import {
  type DependencyScope,
  declare,
  type ManifestReader,
  problemOf,
} from './manifest-reading.js';

/** package.json sections and the scope each gives its names. */
const SECTIONS: readonly (readonly [string, DependencyScope])[] = [
  ['dependencies', 'runtime'],
  ['optionalDependencies', 'runtime'],
  ['peerDependencies', 'runtime'],
  ['devDependencies', 'development'],
];

/**
 * npm's `package.json`: the names in `dependencies`, `optionalDependencies` and
 * `peerDependencies` (runtime) and `devDependencies` (development). Text that is not JSON, or
 * JSON that is not an object, is a problem; a section that is not an object is skipped.
 */
export const npmManifest: ManifestReader = {
  ecosystem: 'npm',
  reads: (path) => baseName(path) === 'package.json',
  read(text) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { ok: false, problem: `not valid JSON (${problemOf(error)})` };
    }
    if (!isRecord(parsed)) return { ok: false, problem: 'not a JSON object' };
    const dependencies = new Map<string, DependencyScope>();
    for (const [section, scope] of SECTIONS) {
      const names = parsed[section];
      if (!isRecord(names)) continue;
      for (const name of Object.keys(names)) declare(dependencies, name, scope);
    }
    return { ok: true, dependencies };
  },
};

/**
 * The names a package.json declares only as peer dependencies that `lockfile` (a path) need not
 * install: the package's consumer installs them. yarn (classic and berry) never installs a
 * project's own peers, so all of them. npm 7 and later, pnpm 8 and later (auto-install-peers on
 * by default) and bun install a project's non-optional peers, and `npm ci` refuses a lockfile
 * without them, so only those `peerDependenciesMeta` marks `optional: true`. Empty for text that
 * is not a JSON object.
 */
export function uninstalledPeers(text: string, lockfile: string): Set<string> {
  const parsed = recordOf(text);
  if (parsed === undefined || !isRecord(parsed.peerDependencies)) return new Set();
  const manifest = parsed;
  const installed = SECTIONS.filter(([section]) => section !== 'peerDependencies').flatMap(
    ([section]) => {
      const names = manifest[section];
      return isRecord(names) ? Object.keys(names) : [];
    },
  );
  const meta = isRecord(manifest.peerDependenciesMeta) ? manifest.peerDependenciesMeta : {};
  const optional = (name: string) => {
    const entry = Object.hasOwn(meta, name) ? meta[name] : undefined;
    return isRecord(entry) && entry.optional === true;
  };
  const installsPeers = baseName(lockfile) !== 'yarn.lock';
  return new Set(
    Object.keys(parsed.peerDependencies).filter(
      (name) => !installed.includes(name) && (!installsPeers || optional(name)),
    ),
  );
}

/**
 * The names whose version spec changes between two package.json texts: a range moved, an alias
 * pointed at another package (`npm:evil@1`), a git URL swapped in — in the name's section or in
 * another one (npm lets `optionalDependencies` override `dependencies`). The lockfile must
 * follow: `npm ci` refuses a tree its lockfile does not satisfy. A name the base declares whose
 * head declares a spec the base gave it in no section counts. So does a setting that replaces
 * what the tree installs (`overrides`, yarn's `resolutions`, `pnpm.overrides`), by its name.
 * Empty when either text is not a JSON object.
 */
export function respecifiedNames(baseText: string, headText: string): string[] {
  const [base, head] = [recordOf(baseText), recordOf(headText)];
  if (base === undefined || head === undefined) return [];
  const before = specsOf(base);
  const names = [...specsOf(head)].filter(([name, specs]) =>
    [...specs].some((spec) => before.get(name)?.has(spec) === false),
  );
  return [...names.map(([name]) => name), ...changedPins(base, head)];
}

/**
 * Of `names`, those whose spec in a package.json text differs from the spec npm's lockfile
 * text records for that package (`packages[folder]`, the folder relative to the lockfile's):
 * a lockfile the change edits elsewhere that still installs what the old spec asked. Empty
 * when either text is not a JSON object; every name when the lockfile has no such record.
 */
export function unrecordedSpecs(
  manifestText: string,
  lockText: string,
  folder: string,
  names: readonly string[],
): string[] {
  const [manifest, lock] = [recordOf(manifestText), recordOf(lockText)];
  if (manifest === undefined || lock === undefined) return [];
  const entry = isRecord(lock.packages) ? lock.packages[folder] : undefined;
  const recorded = specsOf(isRecord(entry) ? entry : {});
  const wanted = specsOf(manifest);
  return names.filter((name) =>
    [...(wanted.get(name) ?? [])].some((spec) => recorded.get(name)?.has(spec) !== true),
  );
}

/** Settings that replace what a tree installs, by where package.json keeps them. */
const PINS = [['overrides'], ['resolutions'], ['pnpm', 'overrides']] as const;

function changedPins(base: Record<string, unknown>, head: Record<string, unknown>): string[] {
  const at = (record: Record<string, unknown>, path: readonly string[]) =>
    JSON.stringify(
      path.reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), record),
    );
  return PINS.filter((path) => at(base, path) !== at(head, path)).map((path) => path.join('.'));
}

function recordOf(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Each name's specs across the sections, as JSON text (a spec need not be a string). */
function specsOf(parsed: Record<string, unknown>): Map<string, Set<string>> {
  const specs = new Map<string, Set<string>>();
  for (const [section] of SECTIONS) {
    const names = parsed[section];
    if (!isRecord(names)) continue;
    for (const [name, spec] of Object.entries(names)) {
      const known = specs.get(name) ?? new Set<string>();
      known.add(JSON.stringify(spec));
      specs.set(name, known);
    }
  }
  return specs;
}

/**
 * The names whose package changes identity between two package.json texts: a direct name now
 * an alias of another package (`"aa": "npm:evil@1"`), a git or tarball URL other than before,
 * and an `overrides` entry that now swaps a package for another. What installs under the name
 * is a new package, as a new name would be: it counts against budgets.new_dependencies. A
 * range moved within the same package is no new one. Empty when either text is no JSON object.
 */
export function swappedNames(baseText: string, headText: string): string[] {
  const [base, head] = [recordOf(baseText), recordOf(headText)];
  if (base === undefined || head === undefined) return [];
  const before = identitiesOf(base);
  return [...identitiesOf(head)]
    .filter(([name, identity]) => {
      const was = before.get(name);
      return was === undefined
        ? identity !== name && name.startsWith('overrides:')
        : was !== identity;
    })
    .map(([name]) => name.replace(/^overrides:/, ''));
}

/** Each direct name's package (and each override's, as `overrides:name`), by its spec. */
function identitiesOf(parsed: Record<string, unknown>): Map<string, string> {
  const identities = new Map<string, string>();
  for (const [section] of SECTIONS) {
    const names = parsed[section];
    if (!isRecord(names)) continue;
    for (const [name, spec] of Object.entries(names)) identities.set(name, identityOf(name, spec));
  }
  const overrides = parsed.overrides;
  for (const [name, spec] of Object.entries(isRecord(overrides) ? overrides : {})) {
    const own = isRecord(spec) ? spec['.'] : spec;
    if (own !== undefined) identities.set(`overrides:${name}`, identityOf(name, own));
  }
  return identities;
}

/**
 * What a spec installs under `name`: the aliased package (`npm:evil@1` → evil), the URL of a
 * git repository or tarball, a path (without a `#ref`), or `name` itself for a version or tag.
 */
function identityOf(name: string, spec: unknown): string {
  if (typeof spec !== 'string') return JSON.stringify(spec);
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)/.exec(spec.trim());
  if (alias?.[1] !== undefined) return alias[1];
  const source = spec.trim().split('#')[0] ?? '';
  return /[:/]/.test(source) ? source : name;
}
