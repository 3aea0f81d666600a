import { posix } from 'node:path';
import { isRecord } from '../../model/json.js';

/** One file a package.json publishes. */
export interface PackageEntry {
  /** Where the package.json names it, for the user: `exports["./x"].import`, `main`, `bin.cli`. */
  readonly field: string;
  /**
   * Entries naming one module in several formats share a group: the conditions of one `exports`
   * subpath, or the package root (`exports["."]`, `main`, `module`, `types`, `browser`).
   */
  readonly group: string;
  /** Repository-relative path of the published file; one `*` in an `exports` pattern's target. */
  readonly target: string;
  /** The `exports` key it serves, when the target is a pattern: a subpath goes to one key only. */
  readonly key?: string;
}

export interface PackageEntries {
  /** The package's folder, repository-relative ('' at the root). */
  readonly folder: string;
  readonly entries: readonly PackageEntry[];
  /** Every `exports` key: whether some condition of it names a file (false: `null`, excluded). */
  readonly exportKeys: ReadonlyMap<string, boolean>;
  /** Why the package.json could not be read as a whole, when it could not. */
  readonly problem?: string;
}

const ROOT = 'root';

/**
 * What a package.json (at repository path `path`) publishes: `exports` in all its forms (a
 * string, an array of fallbacks, a subpath map, conditions nested at any depth, `*` patterns,
 * `null` exclusions), `main`, `module`, `types`/`typings`, `browser` (a path, or a map whose
 * replacements are published) and `bin` (a path or a map). Targets outside the repository are
 * left out: no file of it stands behind them.
 */
export function packageEntries(path: string, text: string): PackageEntries {
  const folder = posix.dirname(path) === '.' ? '' : posix.dirname(path);
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return { folder, entries: [], exportKeys: new Map(), problem: 'it is not valid JSON' };
  }
  if (!isRecord(manifest))
    return { folder, entries: [], exportKeys: new Map(), problem: 'it is not a JSON object' };
  const entries: PackageEntry[] = [];
  const add = (field: string, group: string, target: unknown, key?: string) => {
    const resolved = typeof target === 'string' ? inRepository(folder, target) : undefined;
    if (resolved !== undefined)
      entries.push({ field, group, target: resolved, ...(key === undefined ? {} : { key }) });
  };
  for (const field of ['main', 'module', 'types', 'typings'] as const)
    add(field, ROOT, manifest[field]);
  const { browser, bin } = manifest;
  if (typeof browser === 'string') add('browser', ROOT, browser);
  else if (isRecord(browser))
    for (const [original, replacement] of Object.entries(browser))
      add(`browser[${JSON.stringify(original)}]`, `browser:${original}`, replacement);
  if (typeof bin === 'string') add('bin', 'bin', bin);
  else if (isRecord(bin))
    for (const [name, target] of Object.entries(bin)) add(`bin.${name}`, `bin:${name}`, target);
  const exportKeys = new Map<string, boolean>();
  const subpaths = exportSubpaths(manifest.exports);
  if (subpaths === undefined)
    return {
      folder,
      entries,
      exportKeys,
      problem: '`exports` mixes subpaths ("./x") and conditions at one level',
    };
  for (const [rawKey, value] of subpaths) {
    const { key, targetOf } = folderMapping(rawKey);
    const group = key === '.' ? ROOT : `exports:${key}`;
    const leaves = conditionLeaves(value, `exports[${JSON.stringify(rawKey)}]`);
    exportKeys.set(key, (exportKeys.get(key) ?? false) || leaves.some((leaf) => leaf.target));
    for (const leaf of leaves)
      if (leaf.target !== null)
        add(leaf.field, group, targetOf(leaf.target), key.includes('*') ? key : undefined);
  }
  return { folder, entries, exportKeys };
}

/** `exports` as subpath → value; undefined when it mixes subpaths and conditions. */
function exportSubpaths(exports: unknown): [string, unknown][] | undefined {
  if (exports === undefined || exports === null) return [];
  if (!isRecord(exports)) return [['.', exports]];
  const keys = Object.keys(exports);
  const subpaths = keys.filter((key) => key.startsWith('.'));
  if (subpaths.length === 0) return [['.', exports]];
  if (subpaths.length < keys.length) return undefined;
  return Object.entries(exports);
}

/**
 * A folder mapping (`"./lib/": "./dist/lib/"`, which Node still reads) as the pattern it stands
 * for (`"./lib/*": "./dist/lib/*"`).
 */
function folderMapping(rawKey: string): { key: string; targetOf: (target: string) => string } {
  if (!rawKey.endsWith('/') || rawKey.includes('*'))
    return { key: rawKey, targetOf: (target) => target };
  return {
    key: `${rawKey}*`,
    targetOf: (target) => (target.endsWith('/') ? `${target}*` : target),
  };
}

interface Leaf {
  readonly field: string;
  readonly target: string | null;
}

/** Every target under every condition, at any depth, and in every fallback of an array. */
function conditionLeaves(value: unknown, field: string): Leaf[] {
  if (typeof value === 'string' || value === null) return [{ field, target: value }];
  if (Array.isArray(value))
    return value.flatMap((each, index) => conditionLeaves(each, `${field}[${index}]`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([condition, each]) =>
    conditionLeaves(each, `${field}.${condition}`),
  );
}

/** The repository path of a target relative to the package's folder; undefined outside it. */
function inRepository(folder: string, target: string): string | undefined {
  if (target === '' || posix.isAbsolute(target) || /^[a-z]+:/i.test(target)) return undefined;
  const path = posix.normalize(posix.join(folder, target));
  if (path === '..' || path.startsWith('../')) return undefined;
  return path === '.' ? '' : path.replace(/\/$/, '');
}

/**
 * The `exports` key Node resolves `subpath` with: the key itself when it is one, else the
 * pattern whose part before `*` is longest (then the longest key). `null` keys count: a subpath
 * they win is excluded.
 */
export function exportKeyFor(
  subpath: string,
  keys: ReadonlyMap<string, boolean>,
): string | undefined {
  if (keys.has(subpath) && !subpath.includes('*')) return subpath;
  let best: string | undefined;
  for (const key of keys.keys()) {
    const star = key.indexOf('*');
    if (star === -1 || star !== key.lastIndexOf('*')) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.length < key.length || !subpath.startsWith(prefix) || !subpath.endsWith(suffix))
      continue;
    if (best === undefined || comparePatternKeys(key, best) < 0) best = key;
  }
  return best;
}

/** Node's PATTERN_KEY_COMPARE: negative when `a` is the more specific key. */
function comparePatternKeys(a: string, b: string): number {
  const aBase = a.indexOf('*');
  const bBase = b.indexOf('*');
  if (aBase !== bBase) return bBase - aBase;
  return b.length - a.length;
}
