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

/**
 * The entries of a version 2 or 3 index file holding SHA-1 ids, or undefined for anything else
 * (version 4's compressed paths, a SHA-256 repository, a truncated or foreign file, unmerged
 * entries): the caller then asks git. The trailing checksum is not verified: git wrote the file
 * and renamed it into place whole, and an entry read wrong only ever makes a file look changed.
 */
export function parseIndexFile(bytes: Buffer): IndexEntry[] | undefined {
  if (bytes.length < HEADER || bytes.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = bytes.readUInt32BE(4);
  if (version !== 2 && version !== 3) return undefined;
  const count = bytes.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    if (at + ENTRY_FIXED > bytes.length) return undefined;
    const flags = bytes.readUInt16BE(at + 60);
    if ((flags & STAGE_MASK) !== 0) return undefined;
    const extended = (flags & EXTENDED_FLAG) !== 0;
    if (extended && version < 3) return undefined;
    const nameStart = at + ENTRY_FIXED + (extended ? 2 : 0);
    const nameEnd = bytes.indexOf(0, nameStart);
    if (nameEnd < 0) return undefined;
    const word = (offset: number) => bytes.readUInt32BE(at + offset);
    const name = bytes.subarray(nameStart, nameEnd);
    const path = name.toString('utf8');
    // A name that is not UTF-8 could not be matched with the file system's names.
    if (!Buffer.from(path, 'utf8').equals(name)) return undefined;
    entries.push({
      path,
      mode: word(24).toString(8),
      blobSha: bytes.toString('hex', at + 40, at + 60),
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
    // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
    const length = nameEnd - at;
    at += (length + 8) & ~7;
  }
  return entries;
}
