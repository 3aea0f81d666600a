import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { AureusError } from '../model/errors.js';
import { ANALYZER_VERSION } from '../model/facts.js';
import { errnoCode } from './errno-code.js';
import { ENTRY_LAYOUT } from './facts-cache-format.js';
import { ensureLocalDir } from './store-paths.js';

/**
 * Where cached facts live: `.aureus/local/cache/facts/<VERSION_FOLDER>/`, loose entries in
 * 256 shard folders named after the blob id's first two hex digits (as git does, so no folder
 * grows to hundreds of thousands of names), packs in `packs/`. Entries of another analyzer
 * version or entry layout sit in another folder and are never read.
 */
export interface FactsCacheFolders {
  /** The version folder, created and checked. */
  versionDir(): Promise<string>;
  /** The shard folder of a blob id, created and checked. */
  shardDir(blobSha: string): Promise<string>;
  /** The shard folder of a blob id if it exists (checked), for reads: they create nothing. */
  existingShardDir(blobSha: string): Promise<string | undefined>;
  /** The packs folder, created and checked. */
  packsDir(): Promise<string>;
}

/** The folder of this analyzer version and entry layout: `v3-layout2`. */
export const VERSION_FOLDER = `v${ANALYZER_VERSION}-layout${ENTRY_LAYOUT}`;

export function factsCacheFolders(root: string): FactsCacheFolders {
  const ready = new Map<string, Promise<string>>();
  // Each folder is checked and created once per cache object; concurrent callers share the work.
  const once = (name: string, make: () => Promise<string>): Promise<string> => {
    let pending = ready.get(name);
    if (pending === undefined) {
      pending = make();
      ready.set(name, pending);
      pending.catch(() => ready.delete(name));
    }
    return pending;
  };
  const versionDir = () =>
    once('version', async () => {
      let folder = await ensureLocalDir(root);
      for (const name of ['cache', 'facts', VERSION_FOLDER]) {
        folder = join(folder, name);
        await realFolder(folder);
      }
      return folder;
    });
  const shardDir = (blobSha: string) =>
    once(`shard ${blobSha.slice(0, 2)}`, async () => {
      const folder = join(await versionDir(), blobSha.slice(0, 2));
      await realFolder(folder);
      return folder;
    });
  return {
    versionDir,
    shardDir,
    existingShardDir: async (blobSha) => {
      const folder = join(await versionDir(), blobSha.slice(0, 2));
      if (ready.has(`shard ${blobSha.slice(0, 2)}`)) return shardDir(blobSha);
      const stats = await lstat(folder).catch((error: unknown) => {
        if (errnoCode(error) === 'ENOENT') return undefined;
        throw error;
      });
      if (stats === undefined) return undefined;
      return shardDir(blobSha);
    },
    packsDir: () =>
      once('packs', async () => {
        const folder = join(await versionDir(), 'packs');
        await realFolder(folder);
        return folder;
      }),
  };
}

/**
 * Creates `folder` if it is missing and refuses it if it is a symbolic link: a checked-in or
 * planted link would send cache writes elsewhere on this machine, or feed us facts from there.
 */
async function realFolder(folder: string): Promise<void> {
  try {
    await mkdir(folder);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  const stats = await lstat(folder);
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    throw new AureusError(
      `${folder} is ${stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; AUREUS keeps its facts cache in a real folder and does not follow links there`,
      `delete ${folder} and let AUREUS create it again`,
    );
  }
}

/** What reading a cache file found: its text, nothing, or a symbolic link in its place. */
export type CacheFileRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'link' };

/** Reads a cache file without following a symbolic link in its place (O_NOFOLLOW: ELOOP). */
export async function readCacheFile(path: string): Promise<CacheFileRead> {
  const read = await readCacheBytes(path);
  return read.kind === 'bytes' ? { kind: 'text', text: read.bytes.toString('utf8') } : read;
}

/**
 * readCacheFile's bytes, undecoded: for a large file of many entries, each decoded on its own.
 * One character beyond ASCII makes V8 hold a whole decoded file at two bytes per character, and
 * every slice, hash and parse of it slower (a 5 MB pack: 23 ms to read instead of 5).
 */
export async function readCacheBytes(
  path: string,
): Promise<
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'link' }
> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
    return { kind: 'bytes', bytes: await handle.readFile() };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'link' };
    throw error;
  } finally {
    await handle?.close();
  }
}

// Windows has no O_NOFOLLOW; there the folder checks above are the only guard.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
