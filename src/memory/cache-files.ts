import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { AureusError } from '../model/errors.js';
import { errnoCode } from './errno-code.js';

/**
 * The files of AUREUS's caches (facts, blob texts, parsed policies, import resolutions) are
 * trusted as the compiled-code store trusts its entries: only in real folders and as regular
 * files of this user that no one else may write, never through a link. A cache folder that is
 * not so is an error the user can fix; an entry that is not so is a miss.
 */

/** Owned by this user and writable by no one else; Windows has no such modes to check. */
export function isPrivate(stats: Pick<Stats, 'uid' | 'mode'>): boolean {
  if (process.getuid === undefined) return true;
  return stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/**
 * Folders under the cache folder `root`, created on first use (mode 0700, `root` with its
 * parents) and checked once per object: `folder('facts', 'v3')` checks `root`, `root/facts`
 * and `root/facts/v3`. Concurrent callers share the work. Rejects with an AureusError when one
 * is a link, not a folder, another user's, or writable by others.
 */
export function privateFolders(root: string): (...names: string[]) => Promise<string> {
  const ready = new Map<string, Promise<string>>();
  const folder = (names: readonly string[]): Promise<string> => {
    const path = join(root, ...names);
    let pending = ready.get(path);
    if (pending === undefined) {
      const parent = names.length === 0 ? undefined : folder(names.slice(0, -1));
      pending = (parent ?? Promise.resolve(undefined)).then(async () => {
        await createPrivateFolder(path, parent === undefined);
        return path;
      });
      ready.set(path, pending);
      pending.catch(() => ready.delete(path));
    }
    return pending;
  };
  return (...names) => folder(names);
}

async function createPrivateFolder(path: string, withParents: boolean): Promise<void> {
  try {
    await mkdir(path, { recursive: withParents, mode: 0o700 });
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  refuseUntrusted(path, await lstat(path));
}

/**
 * Throws when `stats` (from lstat) are not those of a real folder of this user that no one else
 * may write: a link could send AUREUS's reads and writes anywhere, and another user's entries
 * could say anything.
 */
export function refuseUntrusted(path: string, stats: Stats): void {
  const problem = stats.isSymbolicLink()
    ? 'is a symbolic link'
    : !stats.isDirectory()
      ? 'is not a folder'
      : !isPrivate(stats)
        ? 'belongs to another user or may be written by others'
        : undefined;
  if (problem === undefined) return;
  throw new AureusError(
    `${path} ${problem}; AUREUS keeps its caches only in folders of this user that no one else may write, and follows no links there.`,
    stats.isSymbolicLink() || !stats.isDirectory()
      ? `delete ${path} and let AUREUS create it again, or set AUREUS_CACHE_DIR to another folder (or off).`
      : `make it yours alone (chmod go-w ${path}), or set AUREUS_CACHE_DIR to another folder (or off).`,
  );
}

/** What reading a cache file found: its bytes, nothing, or something not to trust in its place. */
export type CacheBytesRead =
  | { readonly kind: 'bytes'; readonly bytes: Buffer }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused' };

export type CacheFileRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'refused' };

/** Reads a cache file as UTF-8 text: see readCacheBytes. */
export async function readCacheFile(path: string): Promise<CacheFileRead> {
  const read = await readCacheBytes(path);
  return read.kind === 'bytes' ? { kind: 'text', text: read.bytes.toString('utf8') } : read;
}

/**
 * A cache file's bytes, undecoded: a large file of many entries is decoded entry by entry, as
 * one character beyond ASCII makes V8 hold a whole decoded file at two bytes per character, and
 * every slice, hash and parse of it slower (a 5 MB pack: 23 ms to read instead of 5). Never
 * through a link in its place (O_NOFOLLOW: ELOOP), never blocking on a FIFO (O_NONBLOCK), and
 * only from a regular file of this user no one else may write: anything else is `refused`.
 */
export async function readCacheBytes(path: string): Promise<CacheBytesRead> {
  const read = await readCacheWith(path, (handle) => handle.readFile());
  return read.kind === 'read' ? { kind: 'bytes', bytes: read.value } : read;
}

/** A byte range of a cache file: `length` bytes from `offset`. */
export interface CacheRange {
  readonly offset: number;
  readonly length: number;
}

/**
 * The bytes of each range of a cache file, opened and trusted as readCacheBytes does; a range
 * past the end of the file is shorter, or empty. For a few entries of a large file, whose
 * places its writer listed: the rest of the file is never read.
 */
export async function readCacheRanges(
  path: string,
  ranges: readonly CacheRange[],
): Promise<{ readonly kind: 'ranges'; readonly parts: Buffer[] } | CacheMiss> {
  const read = await readCacheWith(path, async (handle) => {
    const parts: Buffer[] = [];
    for (const { offset, length } of ranges) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      parts.push(buffer.subarray(0, bytesRead));
    }
    return parts;
  });
  return read.kind === 'read' ? { kind: 'ranges', parts: read.value } : read;
}

type CacheMiss = { readonly kind: 'missing' } | { readonly kind: 'refused' };

async function readCacheWith<T>(
  path: string,
  reader: (handle: FileHandle) => Promise<T>,
): Promise<{ readonly kind: 'read'; readonly value: T } | CacheMiss> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING);
    const stats = await handle.stat();
    if (!stats.isFile() || !isPrivate(stats)) return { kind: 'refused' };
    return { kind: 'read', value: await reader(handle) };
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused' };
    throw error;
  } finally {
    await handle?.close();
  }
}

// Windows has neither: there the folder checks above are the only guard.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;
