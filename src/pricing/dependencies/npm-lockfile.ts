import { folderOf, joinPath } from '../../analysis/repository-paths.js';
import { isRecord } from '../../model/json.js';
import { problemOf } from './manifest-reading.js';

/** One entry of a v2/v3 lockfile's `packages` map, as the walk needs it. */
export interface LockEntry {
  /** Names it depends on: dependencies, optionalDependencies and peerDependencies (npm ≥ 7 installs peers). */
  readonly requires: readonly string[];
  readonly hasInstallScript: boolean;
  /** For a `link: true` entry (a workspace package), the folder it links to. */
  readonly linkTo: string | null;
}

/** The `packages` map by key: `''` is the root, `node_modules/a/node_modules/b` a nested install. */
export type NpmLockfile = ReadonlyMap<string, LockEntry>;

export type LockfileReading =
  | { readonly ok: true; readonly lockfile: NpmLockfile }
  | { readonly ok: false; readonly problem: string };

const REQUIRE_SECTIONS = ['dependencies', 'optionalDependencies', 'peerDependencies'];

/**
 * Reads `package-lock.json` / `npm-shrinkwrap.json` v2 or v3 (the `packages` map). A v1
 * lockfile (only the nested `dependencies` tree, npm ≤ 6) is a problem: npm has written v2
 * since 2020, and reading a second format for a dying one is not worth its code.
 */
export function readNpmLockfile(text: string): LockfileReading {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not valid JSON (${problemOf(error)})` };
  }
  if (!isRecord(parsed)) return { ok: false, problem: 'not a JSON object' };
  const packages = parsed.packages;
  if (!isRecord(packages)) return { ok: false, problem: 'no `packages` map (lockfile v1?)' };
  const lockfile = new Map<string, LockEntry>();
  for (const [key, value] of Object.entries(packages)) {
    if (!isRecord(value)) continue;
    const requires = REQUIRE_SECTIONS.flatMap((section) => {
      const names = value[section];
      return isRecord(names) ? Object.keys(names) : [];
    });
    const linkTo =
      value.link === true && typeof value.resolved === 'string' ? value.resolved : null;
    lockfile.set(key, { requires, hasInstallScript: value.hasInstallScript === true, linkTo });
  }
  return { ok: true, lockfile };
}

/**
 * Where `name` resolves from the package (or workspace folder) at `from`, as Node resolves it:
 * `<from>/node_modules/<name>`, then the same in each folder above, up to the root's
 * `node_modules/<name>`. Undefined when the lockfile does not hold it (not installed).
 */
export function resolveInLockfile(
  lockfile: NpmLockfile,
  from: string,
  name: string,
): string | undefined {
  let folder = from;
  for (;;) {
    const candidate = joinPath(folder, `node_modules/${name}`);
    if (lockfile.has(candidate)) return candidate;
    if (folder === '') return undefined;
    folder = folderOf(folder);
  }
}

/** Every installed package reachable from `start` in `lockfile` (links followed, not counted). */
export function reachableFrom(lockfile: NpmLockfile, start: string): string[] {
  const reached: string[] = [];
  const seen = new Set<string>([start]);
  const queue = [start];
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    const entry = lockfile.get(key);
    if (entry === undefined) continue;
    const next =
      entry.linkTo === null
        ? entry.requires.map((name) => resolveInLockfile(lockfile, key, name))
        : [entry.linkTo];
    if (entry.linkTo === null && key.includes('node_modules/')) reached.push(key);
    for (const found of next) {
      if (found === undefined || seen.has(found)) continue;
      seen.add(found);
      queue.push(found);
    }
  }
  return reached;
}
