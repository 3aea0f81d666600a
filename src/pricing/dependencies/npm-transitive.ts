import { baseName, folderOf } from '../../analysis/repository-paths.js';
import { type NpmLockfile, reachableFrom, resolveInLockfile } from './npm-lockfile.js';

/** A lockfile the change touches, both versions read, with what has been attributed so far. */
export interface LockfileChange {
  readonly path: string;
  readonly head: NpmLockfile;
  /** Empty when the lockfile is new. */
  readonly base: NpmLockfile;
  /** Packages already attributed to a dependency priced before. */
  readonly claimed: Set<string>;
}

/** What a new direct dependency brings, by the lockfile diff. */
export interface Brought {
  /** Packages new to the lockfile reachable from it (itself included), not claimed before. */
  readonly packages: number;
  readonly installScript: boolean;
}

/**
 * The changed lockfile that governs a manifest: the nearest one in its folder or a folder
 * above (a workspace's packages share the root's lockfile). `npm-shrinkwrap.json` wins over
 * `package-lock.json` in the same folder, as with npm. Undefined when no changed lockfile does.
 */
export function lockfileFor(
  manifestPath: string,
  lockfiles: readonly LockfileChange[],
): LockfileChange | undefined {
  for (let folder: string | null = folderOf(manifestPath); folder !== null; folder = up(folder)) {
    const here = lockfiles.filter((lockfile) => folderOf(lockfile.path) === folder);
    const found = here.find((lockfile) => baseName(lockfile.path) === 'npm-shrinkwrap.json');
    if (found !== undefined || here[0] !== undefined) return found ?? here[0];
  }
  return undefined;
}

/**
 * Walks the head lockfile from the new dependency, resolved from the manifest's folder (as
 * Node resolves it), through dependencies, optional and peer dependencies and workspace links,
 * and counts the packages absent from the base lockfile (a key present at base is installed
 * already, whatever its version: an upgrade is not a new package). A package reachable from
 * several new dependencies counts once, for the first one priced (manifests by path, names in
 * order), so the counts add up to what the lockfile gained. `installScript`: one of the
 * counted packages has `hasInstallScript`. Null when the head lockfile does not hold the
 * dependency (the lockfile was not updated with it).
 */
export function broughtBy(
  lockfile: LockfileChange,
  manifestPath: string,
  name: string,
): Brought | null {
  const lockFolder = folderOf(lockfile.path);
  const manifestFolder = folderOf(manifestPath);
  const from = lockFolder === '' ? manifestFolder : manifestFolder.slice(lockFolder.length + 1);
  const start = resolveInLockfile(lockfile.head, from, name);
  if (start === undefined) return null;
  let packages = 0;
  let installScript = false;
  for (const key of reachableFrom(lockfile.head, start)) {
    if (lockfile.base.has(key) || lockfile.claimed.has(key)) continue;
    lockfile.claimed.add(key);
    packages += 1;
    installScript ||= lockfile.head.get(key)?.hasInstallScript === true;
  }
  return { packages, installScript };
}

/**
 * Packages the lockfile gained that no new dependency explains (a lockfile-only change, a
 * dependency's upgrade that pulls in more, packages written in by hand), by the same rule as
 * broughtBy: an installed key absent from the base and not claimed by a new dependency.
 */
export function unexplainedGain(lockfile: LockfileChange): Brought {
  let packages = 0;
  let installScript = false;
  for (const [key, entry] of lockfile.head) {
    const installed = key.includes('node_modules/') && entry.linkTo === null;
    if (!installed || lockfile.base.has(key) || lockfile.claimed.has(key)) continue;
    packages += 1;
    installScript ||= entry.hasInstallScript;
  }
  return { packages, installScript };
}

function up(folder: string): string | null {
  if (folder === '') return null;
  return folderOf(folder);
}
