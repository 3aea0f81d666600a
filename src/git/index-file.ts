import { createHash } from 'node:crypto';

/**
 * One entry of a git index file, with the stat data git recorded when it hashed the file: the
 * data git itself trusts to tell that a file is unchanged since (`ie_match_stat`).
 */
export interface IndexEntry {
  readonly path: string;
  /** Octal, as `git ls-files -s` prints it: 100644, 100755, 120000 or 160000. */
  readonly mode: string;
  readonly blobSha: string;
  readonly stat: IndexStat;
}

/** Stat fields as the index stores them: 32 bits each, seconds and nanoseconds apart. */
export interface IndexStat {
  readonly ctimeS: number;
  readonly ctimeNs: number;
  readonly mtimeS: number;
  readonly mtimeNs: number;
  readonly dev: number;
  readonly ino: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
}

const HEADER = 12;
/** Stat data (40 bytes), object id (20), flags (2). */
const ENTRY_FIXED = 62;
const EXTENDED_FLAG = 0x4000;
const STAGE_MASK = 0x3000;
const NON_ASCII = /[\x80-\xff]/;

/**
 * The entries of a version 2 or 3 index file holding SHA-1 ids, or undefined for anything else
 * (version 4's compressed paths, a SHA-256 repository, a truncated or foreign file, unmerged
 * entries, and an index whose entries are not all in this file: a split index's `link`, a
 * sparse index's folder entries, or any other extension git itself may not skip): the caller
 * then asks git. The trailing checksum is verified only with `verify` (see index-listing.ts):
 * an entry read wrong only ever makes a file look changed to a checkpoint, but it would be
 * priced as the commit's content by a check.
 */
export function parseIndexFile(
  bytes: Buffer,
  options: { readonly verify?: boolean } = {},
): IndexEntry[] | undefined {
  const entries: IndexEntry[] = [];
  const read = walkIndex(bytes, options.verify === true, (at, path, mode, blobSha) => {
    const word = (offset: number) => bytes.readUInt32BE(at + offset);
    entries.push({
      path,
      mode,
      blobSha,
      stat: {
        ctimeS: word(0),
        ctimeNs: word(4),
        mtimeS: word(8),
        mtimeNs: word(12),
        dev: word(16),
        ino: word(20),
        uid: word(28),
        gid: word(32),
        size: word(36),
      },
    });
  });
  return read ? entries : undefined;
}

/**
 * The entries as `git ls-files --stage` lists them, without the stat data: parseIndexFile's
 * reading and refusals, for a listing that a hook pays for on thousands of entries.
 */
export function parseIndexListing(
  bytes: Buffer,
  options: { readonly verify?: boolean } = {},
): Omit<IndexEntry, 'stat'>[] | undefined {
  const entries: Omit<IndexEntry, 'stat'>[] = [];
  const read = walkIndex(bytes, options.verify === true, (_at, path, mode, blobSha) => {
    entries.push({ path, mode, blobSha });
  });
  return read ? entries : undefined;
}

/**
 * Calls `visit` with each entry's offset, path, mode and object id; false when the file is not
 * one parseIndexFile reads (then `visit` may have seen some entries, which the caller drops).
 */
function walkIndex(
  bytes: Buffer,
  verify: boolean,
  visit: (at: number, path: string, mode: string, blobSha: string) => void,
): boolean {
  if (bytes.length < HEADER + CHECKSUM || bytes.toString('latin1', 0, 4) !== 'DIRC') return false;
  if (verify && !checksumHolds(bytes)) return false;
  const version = bytes.readUInt32BE(4);
  if (version !== 2 && version !== 3) return false;
  const count = bytes.readUInt32BE(8);
  // The names decoded once as Latin-1 and cut (nearly all are ASCII, the same text), where
  // decoding each on its own costs a hook with thousands of entries more than git listing them.
  const text = bytes.toString('latin1');
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    if (at + ENTRY_FIXED > bytes.length) return false;
    const flags = bytes.readUInt16BE(at + 60);
    if ((flags & STAGE_MASK) !== 0) return false;
    const extended = (flags & EXTENDED_FLAG) !== 0;
    if (extended && version < 3) return false;
    const nameStart = at + ENTRY_FIXED + (extended ? 2 : 0);
    const nameEnd = text.indexOf('\0', nameStart);
    if (nameEnd < 0) return false;
    const ascii = text.slice(nameStart, nameEnd);
    const path = NON_ASCII.test(ascii) ? bytes.toString('utf8', nameStart, nameEnd) : ascii;
    // A name that is not UTF-8 could not be matched with the file system's names. The decoder
    // puts U+FFFD for every byte sequence that is not UTF-8; a name holding U+FFFD itself (rare)
    // is left to git as well, rather than compared byte for byte on every entry.
    if (path !== ascii && path.includes('\uFFFD')) return false;
    const mode = bytes.readUInt32BE(at + 24);
    // A sparse index's folder entry stands for files this file does not list.
    if ((mode & 0o170000) === 0o040000) return false;
    visit(at, path, mode.toString(8), bytes.toString('hex', at + 40, at + 60));
    // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
    const length = nameEnd - at;
    at += (length + 8) & ~7;
  }
  return skippableExtensions(bytes, at);
}

/** The SHA-1 of everything before it: what git writes last and checks on every read. */
const CHECKSUM = 20;

function checksumHolds(bytes: Buffer): boolean {
  const end = bytes.length - CHECKSUM;
  const written = bytes.subarray(end);
  // index.skipHash writes zeros where the checksum goes: nothing to verify, so git is asked.
  if (written.every((byte) => byte === 0)) return false;
  return createHash('sha1').update(bytes.subarray(0, end)).digest().equals(written);
}

/**
 * Whether the extensions after the entries (each a 4-byte signature and a 32-bit length) end
 * exactly at the checksum and are all optional ones: git skips a signature starting with A-Z
 * (the cache tree, resolve-undo, the untracked cache, ...) and refuses to read an index with
 * any other it does not know; `link` (split index) and `sdir` (sparse index) mean entries live
 * elsewhere.
 */
function skippableExtensions(bytes: Buffer, from: number): boolean {
  const end = bytes.length - CHECKSUM;
  let at = from;
  while (at < end) {
    if (at + 8 > end) return false;
    const first = bytes[at] ?? 0;
    if (first < 0x41 || first > 0x5a) return false;
    at += 8 + bytes.readUInt32BE(at + 4);
  }
  return at === end;
}
