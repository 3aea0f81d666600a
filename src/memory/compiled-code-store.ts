import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isPrivate } from './cache-files.js';

const ENTRY_SUFFIX = '.v8code';
const CHECKSUM_BYTES = 32;
const DAY_MS = 24 * 60 * 60 * 1000;
/** An entry nobody read for this long belongs to a TypeScript or Node version no longer run. */
const STALE_AFTER_MS = 30 * DAY_MS;

/** Why no compiled code was handed out: nothing stored, a damaged entry, or one not ours. */
export type CodeMiss = 'absent' | 'damaged' | 'not-private';

export interface CompiledCodeStore {
  read(source: string): { code: Buffer } | { miss: CodeMiss };
  /** Best effort: a folder that cannot be written leaves the next run to compile again. */
  write(source: string, code: Uint8Array): boolean;
}

/**
 * V8's compiled code for large modules, kept between processes in a folder of the user's own
 * (compiling TypeScript's 9 MB takes ~130 ms, reading it back from here ~25 ms).
 *
 * V8 checks a code cache against its own version, its flags and the source's *length* only; the
 * rest is trusted. So an entry is named by the SHA-256 of the source it was compiled from (and
 * by the V8 version and architecture, so that two Node versions on one machine do not overwrite
 * each other), and ends with a SHA-256 of itself: an entry of other bytes is never found, a
 * torn or altered one never used. Compiled code runs as code: an entry is used only when it is
 * a regular file owned by this user that no one else may write.
 */
export function compiledCodeStore(folder: string, runtime: string): CompiledCodeStore {
  const pathOf = (source: string) =>
    join(folder, `${sha256(source).toString('hex').slice(0, 40)}-${runtime}${ENTRY_SUFFIX}`);
  return {
    read(source) {
      // Named by a hash of the source: 9 MB for TypeScript, hashed once.
      const path = pathOf(source);
      let fd: number;
      try {
        fd = openSync(path, 'r');
      } catch {
        return { miss: 'absent' };
      }
      try {
        return readEntry(fd, path);
      } finally {
        closeSync(fd);
      }
    },
    write(source, code) {
      const path = pathOf(source);
      const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        // 'wx': never through a link or over a file someone else placed there.
        writeFileSync(temp, Buffer.concat([code, sha256(code)]), { flag: 'wx', mode: 0o600 });
        renameSync(temp, path);
      } catch {
        removeQuietly(temp);
        return false;
      }
      removeStaleEntries(folder, path);
      return true;
    },
  };
}

function readEntry(fd: number, path: string): { code: Buffer } | { miss: CodeMiss } {
  const stats = fstatSync(fd);
  if (!stats.isFile() || !isPrivate(stats)) return { miss: 'not-private' };
  const bytes = readFileSync(fd);
  const code = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  if (bytes.length <= CHECKSUM_BYTES || !sha256(code).equals(bytes.subarray(code.length))) {
    return { miss: 'damaged' };
  }
  // Reads keep an entry alive for removeStaleEntries; once a day is enough to tell.
  const now = Date.now();
  if (now - stats.mtimeMs > DAY_MS) {
    try {
      utimesSync(path, now / 1000, now / 1000);
    } catch {
      // A read-only folder: the entry is still good to use.
    }
  }
  return { code };
}

/** Entries of versions no longer run, and temporary files of writers that died. */
function removeStaleEntries(folder: string, kept: string): void {
  const now = Date.now();
  for (const name of safeList(folder)) {
    const path = join(folder, name);
    if (path === kept || !(name.endsWith(ENTRY_SUFFIX) || name.endsWith('.tmp'))) continue;
    try {
      const limit = name.endsWith('.tmp') ? DAY_MS : STALE_AFTER_MS;
      if (now - lstatSync(path).mtimeMs > limit) removeQuietly(path);
    } catch {
      // Removed meanwhile by another run.
    }
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // Its folder is gone or was never one: nothing was left there.
  }
}

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function sha256(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}
