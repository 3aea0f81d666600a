import { baseName, folderOf } from '../../analysis/repository-paths.js';
import { type NpmLockfile, reachableFrom, resolveInLockfile } from './npm-lockfile.js';

/** A lockfile the change touches, both versions read, with what has been attributed so far. */
export interface LockfileChange {
  readonly path: string;
  readonly head: NpmLockfile;
  /** Empty when the lockfile is new. */
  readonly base: NpmLockfile;
  /** Names of the packages the base installs, anywhere in its tree. */
  readonly baseNames: ReadonlySet<string>;
  /** Install keys of packages already attributed to a dependency priced before. */
  readonly claimed: Set<string>;
}

/**
 * The package an install key holds: `node_modules/a/node_modules/@s/b` → `@s/b`. A package the
 * base installs under any key is not new: `npm dedupe` moving `a/node_modules/b` up to
 * `node_modules/b` installs nothing new, and a second copy of an installed package is an
 * upgrade's detail. A package the base lacks counts once per place the head installs it.
 */
function installedName(key: string): string {
  const at = key.lastIndexOf('node_modules/');
  return at < 0 ? key : key.slice(at + 'node_modules/'.length);
}

export function installedNames(lockfile: NpmLockfile): Set<string> {
  const names = new Set<string>();
  for (const [key, entry] of lockfile)
    if (key.includes('node_modules/') && entry.linkTo === null) names.add(installedName(key));
  return names;
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
 * and counts the packages whose name the base lockfile does not install anywhere (installed
 * already, whatever its version or place: an upgrade or a move is not a new package; see
 * installedName). A package reachable from
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
    if (lockfile.baseNames.has(installedName(key)) || lockfile.claimed.has(key)) continue;
    lockfile.claimed.add(key);
    packages += 1;
    installScript ||= lockfile.head.get(key)?.hasInstallScript === true;
  }
  return { packages, installScript };
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
  for (const [key, entry] of lockfile.head) {
    if (!key.includes('node_modules/') || entry.linkTo !== null) continue;
    if (lockfile.baseNames.has(installedName(key)) || lockfile.claimed.has(key)) continue;
    packages += 1;
    installScript ||= entry.hasInstallScript;
  }
  return { packages, installScript };
}

function up(folder: string): string | null {
  if (folder === '') return null;
  return folderOf(folder);
}
