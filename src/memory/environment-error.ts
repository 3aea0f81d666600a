import { dirname } from 'node:path';
import { AureusError } from '../model/errors.js';
import { targetOfTemporary } from './atomic-write.js';
import { userCacheFolder } from './cache-dir.js';
import { codeCacheFolder } from './compiled-code-cache.js';
import { errnoCode } from './errno-code.js';
import { isInside } from './is-inside.js';

/** A folder of AUREUS's own that a variable moves elsewhere, named in the fix. */
export interface MovableFolder {
  readonly folder: string;
  /** How to move it: `set AUREUS_CODE_CACHE to …`. */
  readonly move: string;
}

/** What each failure of the machine (not of AUREUS, nor of the code it judges) means, and its fix. */
const FAILURES: Readonly<
  Record<string, { readonly what: string; readonly fix: (folder: string) => string }>
> = {
  ENOSPC: {
    what: 'the disk is full',
    fix: (folder) => `free space on the disk that holds ${folder}`,
  },
  EDQUOT: {
    what: 'the disk quota is used up',
    fix: (folder) => `free space in your quota on the disk that holds ${folder}`,
  },
  EROFS: {
    what: 'the file system is read-only',
    fix: (folder) => `remount read-write the file system that holds ${folder}`,
  },
  EACCES: {
    what: 'permission denied',
    fix: (folder) => `let this user write to ${folder} (see its owner and mode: ls -ld ${folder})`,
  },
  EPERM: {
    what: 'the operation is not permitted',
    fix: (folder) => `let this user write to ${folder} (see its owner and mode: ls -ld ${folder})`,
  },
  EIO: {
    what: 'the disk reported an input/output error',
    fix: (folder) => `check the disk that holds ${folder}`,
  },
  EMFILE: { what: 'too many files are open', fix: () => 'raise the open-file limit (ulimit -n)' },
  ENFILE: {
    what: 'the system has too many files open',
    fix: () => 'close programs that hold files open',
  },
};

/** The verb of each system call, as a user would say what AUREUS was doing. */
const VERBS: Readonly<Record<string, string>> = {
  open: 'open',
  mkdir: 'create the folder',
  rename: 'replace',
  write: 'write',
  writeFile: 'write',
  appendFile: 'write',
  copyFile: 'write',
  fsync: 'write',
  ftruncate: 'write',
  unlink: 'remove',
  rmdir: 'remove',
  rm: 'remove',
  read: 'read',
  readFile: 'read',
  scandir: 'list',
};

/**
 * A full disk, a read-only mount, a folder AUREUS may not write: the error as a user can act on
 * it (the path, what happened, how to fix it), or undefined for anything else, which stays an
 * internal error. Works for any path, with `verb` and `path` given when the caller knows them
 * better than the system call (the file it meant rather than its temporary twin).
 */
export function environmentError(
  error: unknown,
  options: {
    readonly verb?: string;
    readonly path?: string;
    readonly movable?: readonly MovableFolder[];
  } = {},
): AureusError | undefined {
  const code = errnoCode(error);
  const failure = code === undefined ? undefined : FAILURES[code];
  if (failure === undefined || typeof error !== 'object' || error === null) return undefined;
  const reported = 'path' in error && typeof error.path === 'string' ? error.path : undefined;
  const path = options.path ?? (reported === undefined ? undefined : targetOfTemporary(reported));
  const syscall = 'syscall' in error && typeof error.syscall === 'string' ? error.syscall : '';
  const verb = options.verb ?? VERBS[syscall] ?? 'use';
  if (path === undefined)
    return new AureusError(
      `AUREUS could not ${verb} a file: ${failure.what} (${code}).`,
      'fix the disk or the permissions AUREUS writes to, then run again.',
    );
  const folder = dirname(path);
  const mover = (options.movable ?? []).find((known) => isInside(folder, known.folder));
  return new AureusError(
    `cannot ${verb} ${path}: ${failure.what} (${code}).`,
    `${failure.fix(folder)}${mover === undefined ? '' : `, or ${mover.move}`}, then run again.`,
  );
}

/**
 * AUREUS's own folders outside any repository, and the variable that moves each: the compiled
 * code cache, and AUREUS's cache folder it lives in by default.
 */
export function movableFolders(env: NodeJS.ProcessEnv): MovableFolder[] {
  const folders: MovableFolder[] = [];
  const code = codeCacheFolder(env);
  if (code !== undefined)
    folders.push({ folder: code, move: 'set AUREUS_CODE_CACHE to another folder (or off)' });
  const caches = userCacheFolder(env);
  if (caches !== undefined)
    folders.push({ folder: caches, move: 'set AUREUS_CACHE_DIR to another folder (or off)' });
  return folders;
}
