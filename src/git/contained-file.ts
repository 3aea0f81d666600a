import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { errnoCode } from '../memory/errno-code.js';
import { fileKind } from '../memory/file-kind.js';
import { isInside } from '../memory/is-inside.js';

/** A file's bytes, or why they were not read (never anything of what lies behind a link). */
export type ContainedRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: string };

/** What a path is, as far as reads go: a file read() opens, a folder, or nothing. */
export type ContainedKind = 'file' | 'folder' | undefined;

/**
 * The working tree as every reader of it must see it (the TypeScript hosts of `check`,
 * `analyze` and `simplify`, `init`'s manifests, reflexion's texts): only what is inside the
 * repository, never through a link the repository commits, never blocking, never unbounded.
 */
export interface ContainedDisk {
  /** The root as the caller names it; relative paths are taken from it. */
  readonly root: string;
  read(path: string): ContainedRead;
  kind(path: string): ContainedKind;
  /** The names of a folder's entries that are files or folders by `kind`. */
  list(path: string): ReadonlyArray<{ readonly name: string; readonly kind: 'file' | 'folder' }>;
  /** Where a path really is when that is inside the repository; else the path itself. */
  realpath(path: string): string;
}

/** The reason a read gives for a path where nothing is. */
export const NOT_FOUND = 'it does not exist';

/** Windows has no O_NOFOLLOW nor O_NONBLOCK; there the lstat before the open is the guard. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;
const READ_CHUNK = 64 * 1024;

type Located = { readonly real: string } | { readonly reason: string };

/**
 * Reads under `root` by these rules:
 * - the file itself must be a regular file: a symbolic link, FIFO, device, socket or folder in
 *   its place is refused (lstat first, then opened O_NOFOLLOW | O_NONBLOCK and checked again, so
 *   nothing swapped in meanwhile is followed or blocks);
 * - at most `maxBytes` are read, however large the file claims to be or grows while read;
 * - the folders on its way, links resolved, must stay inside the repository and out of its
 *   `.git`. A folder link that stays inside is followed (package managers lay out node_modules
 *   so), one that leads out is not, and a loop ends in ELOOP, refused.
 * Folders are resolved once per disk: make one per run.
 */
export function containedDisk(root: string, maxBytes: number): ContainedDisk {
  const lexicalRoot = resolve(root);
  const realRoot = realPathOr(lexicalRoot);
  const gitFolder = join(realRoot, '.git');
  const folders = new Map<string, Located>();

  const inRepository = (real: string): boolean =>
    isInside(real, realRoot) && !isInside(real, gitFolder);
  const outsideReason = (real: string): string =>
    isInside(real, realRoot)
      ? "it is in the repository's .git folder"
      : 'a folder on its path leads out of the repository';

  const realFolder = (folder: string): Located => {
    const known = folders.get(folder);
    if (known !== undefined) return known;
    let found: Located;
    try {
      const real = realpathSync.native(folder);
      found = inRepository(real) ? { real } : { reason: outsideReason(real) };
    } catch (error) {
      const code = errnoCode(error);
      found = {
        reason:
          code === 'ELOOP'
            ? 'a folder on its path is a loop of symbolic links'
            : code === 'ENOENT' || code === 'ENOTDIR'
              ? NOT_FOUND
              : `its folder could not be read (${code ?? String(error)})`,
      };
    }
    folders.set(folder, found);
    return found;
  };

  /** The path's real place: its folder resolved, its own name kept (never followed). */
  const locate = (path: string): Located => {
    const absolute = resolve(lexicalRoot, path);
    const base = isInside(absolute, lexicalRoot)
      ? lexicalRoot
      : isInside(absolute, realRoot)
        ? realRoot
        : undefined;
    if (base === undefined) return { reason: 'it is outside the repository' };
    if (absolute === base) return { real: realRoot };
    const folder = realFolder(dirname(absolute));
    if ('reason' in folder) return folder;
    const real = join(folder.real, basename(absolute));
    return inRepository(real) ? { real } : { reason: outsideReason(real) };
  };

  const lstatOf = (real: string): Stats | undefined => {
    try {
      return lstatSync(real);
    } catch {
      return undefined;
    }
  };

  const kind = (path: string): ContainedKind => {
    const place = locate(path);
    if ('reason' in place) return undefined;
    const stats = lstatOf(place.real);
    if (stats === undefined) return undefined;
    if (stats.isFile()) return stats.size <= maxBytes ? 'file' : undefined;
    if (stats.isDirectory()) return 'folder';
    if (!stats.isSymbolicLink()) return undefined;
    // A link to a folder inside the repository is a folder on the way to a file, as above.
    const target = realFolder(place.real);
    if ('reason' in target) return undefined;
    return lstatOf(target.real)?.isDirectory() === true ? 'folder' : undefined;
  };

  return {
    root: lexicalRoot,
    kind,
    read: (path) => {
      const place = locate(path);
      if ('reason' in place) return refused(place.reason);
      const stats = lstatOf(place.real);
      if (stats === undefined) return refused(NOT_FOUND);
      return readRegularFile(place.real, stats, maxBytes);
    },
    list: (path) => {
      const absolute = resolve(lexicalRoot, path);
      if (kind(absolute) !== 'folder') return [];
      const folder = realFolder(absolute);
      if ('reason' in folder) return [];
      let names: string[];
      try {
        names = readdirSync(folder.real);
      } catch {
        return [];
      }
      return names.flatMap((name) => {
        const found = kind(join(absolute, name));
        return found === undefined ? [] : [{ name, kind: found }];
      });
    },
    realpath: (path) => {
      const place = locate(path);
      if ('reason' in place) return path;
      if (lstatOf(place.real)?.isSymbolicLink() !== true) return place.real;
      const target = realFolder(place.real);
      return 'real' in target ? target.real : path;
    },
  };
}

/** A root that does not exist (yet) holds nothing: its own path will do. */
function realPathOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function readRegularFile(real: string, stats: Stats, maxBytes: number): ContainedRead {
  if (stats.isSymbolicLink()) return refused('it is a symbolic link, which AUREUS does not follow');
  if (!stats.isFile()) return refused(`it is ${fileKind(stats)}, not a regular file`);
  if (stats.size > maxBytes) return refused(overLimit(maxBytes));
  let descriptor: number;
  try {
    descriptor = openSync(real, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING);
  } catch (error) {
    const code = errnoCode(error);
    return refused(
      code === 'ELOOP'
        ? 'it is a symbolic link, which AUREUS does not follow'
        : `it could not be opened (${code ?? String(error)})`,
    );
  }
  try {
    const opened = fstatSync(descriptor);
    if (!opened.isFile()) return refused(`it is ${fileKind(opened)}, not a regular file`);
    return readAtMost(descriptor, maxBytes);
  } finally {
    closeSync(descriptor);
  }
}

/** Reads to the end, but never more than `maxBytes` (a file may grow while it is read). */
function readAtMost(descriptor: number, maxBytes: number): ContainedRead {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, maxBytes + 1 - total));
    const read = readSync(descriptor, chunk, 0, chunk.length, null);
    if (read === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
    chunks.push(chunk.subarray(0, read));
    total += read;
    if (total > maxBytes) return refused(overLimit(maxBytes));
  }
}

function overLimit(maxBytes: number): string {
  return `it is over the read limit of ${maxBytes} bytes`;
}

function refused(reason: string): ContainedRead {
  return { ok: false, reason };
}
