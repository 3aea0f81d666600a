import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import envPaths from 'env-paths';
import { refuseUntrusted } from './cache-files.js';
import { errnoCode } from './errno-code.js';

/** Where AUREUS keeps its caches for a run, or why it keeps none. */
export type CacheFolder = { readonly dir: string } | { readonly off: string };

/**
 * The folder of AUREUS's caches: `AUREUS_CACHE_DIR` (a folder, or `off`), else the user's cache
 * folder (`~/.cache/aureus` on Linux, `~/Library/Caches/aureus` on macOS,
 * `%LOCALAPPDATA%\aureus\Cache` on Windows). Undefined when off.
 */
export function userCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const setting = env.AUREUS_CACHE_DIR;
  if (setting === 'off') return undefined;
  if (setting !== undefined && setting !== '') return resolve(setting);
  return envPaths('aureus', { suffix: '' }).cache;
}

/**
 * The caches for work on the repository at `root`: the user's cache folder, never inside the
 * repository, whose checkout could carry entries (with valid checksums: they are plain hashes)
 * or links of its own there. What is keyed by content is shared by every repository; what
 * depends on a clone's disk is kept apart by RepositorySource.resolutionScope.
 */
export function localCacheFolder(root: string, env: NodeJS.ProcessEnv = process.env): CacheFolder {
  const dir = userCacheFolder(env);
  if (dir === undefined) return { off: 'AUREUS_CACHE_DIR is off' };
  // As written and with links resolved: a path through a link the checkout commits is inside
  // it even when the link leads out.
  if (isWithin(dir, resolve(root)) || isWithin(realPath(dir), realPath(root))) {
    return {
      off: `the cache folder ${dir} is inside the repository, whose checkout could carry entries of its own; set AUREUS_CACHE_DIR to a folder outside it`,
    };
  }
  return usableCacheFolder(dir);
}

/** localCacheFolder's folder, or undefined when the run goes without caches. */
export function localCacheDir(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const folder = localCacheFolder(root, env);
  return 'dir' in folder ? folder.dir : undefined;
}

/** The App's caches, in its data folder (AUREUS_DATA_DIR), which no repository reaches. */
export function appCacheFolder(dataDir: string): string | undefined {
  const folder = usableCacheFolder(join(dataDir, 'cache'));
  return 'dir' in folder ? folder.dir : undefined;
}

/**
 * `dir`, created (mode 0700) when missing. A folder that cannot be created (a read-only or
 * missing home) leaves the run without caches, which only costs time; one that is a link,
 * another user's or writable by others is refused: its entries could be anyone's.
 */
function usableCacheFolder(dir: string): CacheFolder {
  let folder = checked.get(dir);
  if (folder === undefined) {
    folder = createdFolder(dir);
    checked.set(dir, folder);
  }
  return folder;
}

function createdFolder(dir: string): CacheFolder {
  let stats: Stats;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stats = lstatSync(dir);
  } catch (error) {
    return { off: `the cache folder ${dir} cannot be created (${errnoCode(error) ?? error})` };
  }
  refuseUntrusted(dir, stats);
  return { dir };
}

/** Folders checked by this process: a check asks for its caches several times. */
const checked = new Map<string, CacheFolder>();

/**
 * Whether `folder` lies in the git working tree around `cwd` (the nearest folder at or above it
 * holding a `.git`): the checkout AUREUS runs in, whose files are this user's and so would pass
 * any check of owner and modes.
 */
export function insideWorkTree(folder: string, cwd: string): boolean {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsLink(join(dir, '.git'))) return isWithin(resolve(folder), dir);
    if (dirname(dir) === dir) return false;
  }
}

function existsLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isWithin(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || !(rest === '..' || rest.startsWith(`..${sep}`) || isAbsolute(rest));
}

/** `path` with its links resolved, as far as it exists (the rest as written). */
export function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}
