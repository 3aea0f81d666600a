import { baseName, folderOf } from '../../analysis/repository-paths.js';
import type { Ecosystem } from './manifest-reading.js';

/**
 * What a lockfile installs, whatever its format: every lockfile parser turns its text into this
 * one model, so the packages a change brings are priced by one walk (broughtBy, below).
 */
export interface InstalledPackage {
  /** The package's name (a workspace's own whose name the lockfile omits: its key). */
  readonly name: string;
  /**
   * Where the lockfile says the workspace's own package lives, null for any other package. An
   * own package is walked through, never counted, once own-packages.ts has checked that the
   * repository holds it: a lockfile alone must not declare packages free.
   */
  readonly own: OwnPackage | null;
  /** Keys of the packages it needs installed: dependencies, optional and peer ones, resolved. */
  readonly dependencies: readonly string[];
  readonly installScript: boolean;
}

/** What a lockfile records of a workspace's own package: what its manifest must show. */
export interface OwnPackage {
  /** The name its manifest gives it, null where the lockfile records none. */
  readonly name: string | null;
  /** Its folder relative to the lockfile's, as written there; null where it records none. */
  readonly folder: string | null;
}

export interface InstalledPackages {
  /** By a key unique in the lockfile (its format's own: an install path, `name@version`, …). */
  readonly packages: ReadonlyMap<string, InstalledPackage>;
  /**
   * Per workspace folder (relative to the lockfile's folder, `''` for its own), the key each
   * name the workspace depends on resolves to. A folder without an entry takes its parent's.
   */
  readonly importers: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

export type LockfileReading =
  | { readonly ok: true; readonly lockfile: InstalledPackages }
  | { readonly ok: false; readonly problem: string };

/** The key `name` resolves to from the workspace folder `from` or the nearest one above it. */
export function dependencyOf(
  lockfile: InstalledPackages,
  from: string,
  name: string,
): string | undefined {
  for (let folder = from; ; folder = folderOf(folder)) {
    const found = lockfile.importers.get(folder)?.get(name);
    if (found !== undefined || folder === '') return found;
  }
}

/** Every installed package reachable from `start` (itself included; workspaces walked, not counted). */
export function reachableFrom(lockfile: InstalledPackages, start: string): string[] {
  const reached: string[] = [];
  const seen = new Set<string>([start]);
  const queue = [start];
  for (const key of queue) {
    const entry = lockfile.packages.get(key);
    if (entry === undefined) continue;
    if (entry.own === null) reached.push(key);
    for (const found of entry.dependencies) {
      if (seen.has(found)) continue;
      seen.add(found);
      queue.push(found);
    }
  }
  return reached;
}

/** The names a lockfile installs (its workspaces' own packages aside). */
export function installedNames(lockfile: InstalledPackages): Set<string> {
  const names = new Set<string>();
  for (const { name, own } of lockfile.packages.values()) if (own === null) names.add(name);
  return names;
}

/** A repository-style path with `.` and `..` segments folded (`a/./b/../c` → `a/c`, `.` → ''). */
export function normalFolder(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** A lockfile the change touches, both versions read, with what has been attributed so far. */
export interface LockfileChange {
  readonly path: string;
  /** The manifests it governs: those of this ecosystem in its folder or below. */
  readonly ecosystem: Ecosystem;
  readonly head: InstalledPackages;
  /** Empty when the lockfile is new. */
  readonly base: InstalledPackages;
  /**
   * Names of the packages the base installs, anywhere in its tree. A package the base installs
   * is not new, whatever its version or place: `npm dedupe` moving `a/node_modules/b` up to
   * `node_modules/b` installs nothing new, and a second copy of an installed package is an
   * upgrade's detail. A package the base lacks counts once per key the head installs it under.
   */
  readonly baseNames: ReadonlySet<string>;
  /** Keys of packages already attributed to a dependency priced before. */
  readonly claimed: Set<string>;
}

/** What a new direct dependency brings, by the lockfile diff. */
export interface Brought {
  /** Packages new to the lockfile reachable from it (itself included), not claimed before. */
  readonly packages: number;
  readonly installScript: boolean;
}

/**
 * The lockfile that governs a manifest, among those given: the nearest one of its ecosystem in its folder
 * or a folder above (a workspace's packages share the root's lockfile). `npm-shrinkwrap.json`
 * wins over `package-lock.json` in the same folder, as with npm. Undefined when none does.
 */
export function lockfileFor<T extends { readonly path: string; readonly ecosystem: Ecosystem }>(
  manifestPath: string,
  ecosystem: Ecosystem,
  lockfiles: readonly T[],
): T | undefined {
  for (let folder: string | null = folderOf(manifestPath); folder !== null; folder = up(folder)) {
    const here = lockfiles.filter(
      (lockfile) => lockfile.ecosystem === ecosystem && folderOf(lockfile.path) === folder,
    );
    const found = here.find((lockfile) => baseName(lockfile.path) === 'npm-shrinkwrap.json');
    if (found !== undefined || here[0] !== undefined) return found ?? here[0];
  }
  return undefined;
}

/**
 * Walks the head lockfile from the new dependency, resolved from the manifest's workspace,
 * through what each package needs installed and workspace links, and counts the packages whose
 * name `known` lacks: for a new dependency the names the base lockfile installs anywhere; for
 * one moved from development to runtime, those the base's runtime dependencies already bring
 * (runtimeNames). A package reachable from several new dependencies counts once, for the first
 * one priced (manifests by path, names in order), so the counts add up to what the lockfile
 * gained. `installScript`: one of the counted packages runs one. Null when the head lockfile
 * does not hold the dependency (the lockfile was not updated with it).
 */
export function broughtBy(
  lockfile: LockfileChange,
  manifestPath: string,
  name: string,
  known: ReadonlySet<string> = lockfile.baseNames,
): Brought | null {
  const start = dependencyOf(lockfile.head, workspaceOf(lockfile, manifestPath), name);
  if (start === undefined) return null;
  let packages = 0;
  let installScript = false;
  for (const key of reachableFrom(lockfile.head, start)) {
    const entry = lockfile.head.packages.get(key);
    if (entry === undefined || entry.own !== null) continue;
    if (known.has(entry.name) || lockfile.claimed.has(key)) continue;
    lockfile.claimed.add(key);
    packages += 1;
    installScript ||= entry.installScript;
  }
  return { packages, installScript };
}

/** The names the base lockfile installs for the manifest's runtime dependencies `names`. */
export function runtimeNames(
  lockfile: LockfileChange,
  manifestPath: string,
  names: readonly string[],
): Set<string> {
  const from = workspaceOf(lockfile, manifestPath);
  const found = new Set<string>();
  for (const name of names) {
    const start = dependencyOf(lockfile.base, from, name);
    if (start === undefined) continue;
    for (const key of reachableFrom(lockfile.base, start)) {
      const installed = lockfile.base.packages.get(key);
      if (installed?.own === null) found.add(installed.name);
    }
  }
  return found;
}

/**
 * Packages the lockfile gained that no new dependency explains (a lockfile-only change, a
 * dependency's upgrade that pulls in more, packages written in by hand), by the same rule as
 * broughtBy: an installed package whose name the base does not install, under a key no new
 * dependency claimed.
 */
export function unexplainedGain(lockfile: LockfileChange): Brought {
  let packages = 0;
  let installScript = false;
  for (const [key, entry] of lockfile.head.packages) {
    if (entry.own !== null || lockfile.baseNames.has(entry.name) || lockfile.claimed.has(key))
      continue;
    packages += 1;
    installScript ||= entry.installScript;
  }
  return { packages, installScript };
}

/** The manifest's folder relative to the lockfile's. */
function workspaceOf(lockfile: LockfileChange, manifestPath: string): string {
  const lockFolder = folderOf(lockfile.path);
  const manifestFolder = folderOf(manifestPath);
  return lockFolder === '' ? manifestFolder : manifestFolder.slice(lockFolder.length + 1);
}

function up(folder: string): string | null {
  if (folder === '') return null;
  return folderOf(folder);
}
