import { folderOf } from '../../analysis/repository-paths.js';

/**
 * What a lockfile installs, whatever its format: every lockfile parser turns its text into this
 * one model, so the packages a change brings are priced by one walk (lockfile-transitive.ts).
 */
export interface InstalledPackage {
  /** The package's name; null for a workspace's own package (walked through, never counted). */
  readonly name: string | null;
  /** Keys of the packages it needs installed: dependencies, optional and peer ones, resolved. */
  readonly dependencies: readonly string[];
  readonly installScript: boolean;
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
    if (entry.name !== null) reached.push(key);
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
  for (const { name } of lockfile.packages.values()) if (name !== null) names.add(name);
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
