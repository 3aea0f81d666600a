import { constants, type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AureusError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';
import { fsyncDirectory } from './atomic-write.js';
import { errnoCode } from './errno-code.js';
import {
  anchorProblem,
  checkLine,
  formatLine,
  GENESIS_HASH,
  type JournalAnchor,
  type JournalContents,
  type JournalLine,
  NewerJournalFormat,
  parseJournal,
  SUMMARY_KIND,
  serializeRecord,
  summaryAt,
} from './journal-format.js';

/** How much of the end of the file an append reads to find the last valid line. */
const TAIL_BYTES = 64 * 1024;

export interface AppendOptions {
  now?: () => Date;
  /** Where the journal's anchor is kept, away from the file's editor; updated under the lock. */
  anchor?: AnchorStore;
  /**
   * Runs after the line is written and the anchor updated, still under the lock: retention's
   * compaction (journal-retention.ts, compactionWhenDue), which must not race an append.
   */
  whileLocked?: (() => Promise<void>) | undefined;
}

/** Reads and replaces a journal's anchor (its length and last hash), wherever its writer keeps it. */
export interface AnchorStore {
  read(): Promise<JournalAnchor | null>;
  write(anchor: JournalAnchor): Promise<void>;
}

/** Appends one record under an inter-process lock and returns the line written. */
export async function appendToJournal(
  path: string,
  record: JsonObject,
  options: AppendOptions = {},
): Promise<JournalLine> {
  const serialized = serializeRecord(record);
  if (record.kind === SUMMARY_KIND)
    throw new AureusError(
      `cannot append a record of kind "${SUMMARY_KIND}": that kind is the summary compaction writes`,
      'give the record another kind',
    );
  const now = options.now ?? (() => new Date());
  await mkdir(dirname(path), { recursive: true });
  let compromised = false;
  const release = await lockJournal(path, () => {
    compromised = true;
  });
  try {
    const appended = await appendLocked(path, { serialized, record }, now, () => compromised);
    const { line } = appended;
    if (options.anchor !== undefined) {
      const lines = await newLength(path, appended, options.anchor);
      if (lines !== null) await options.anchor.write({ lines, hash: line.hash });
    }
    if (options.whileLocked !== undefined && !compromised) await options.whileLocked();
    return line;
  } finally {
    if (!compromised) await release();
  }
}

/**
 * Reads and verifies a journal. A missing file is an empty journal; bad lines are reported in
 * `problems` and skipped, never thrown. A directory, symlink or special file is refused.
 */
export async function readJournal(path: string): Promise<JournalContents> {
  return parseJournal((await readJournalText(path)) ?? '');
}

/** The journal's text, or null when there is no file; refused as readJournal refuses. */
export async function readJournalText(path: string): Promise<string | null> {
  const stats = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return null;
  refuseNonFile(path, stats);
  // O_NOFOLLOW closes the window in which the file could be swapped for a link after lstat.
  const handle = await open(path, constants.O_RDONLY | noFollow()).catch((error: unknown) => {
    throw openFailure(path, error);
  });
  try {
    return (await handle.readFile()).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The lines whose checksum holds in the last `maxBytes` of a journal, oldest first (none when
 * there is no file): what a hook looks up among a ledger's newest entries without reading and
 * hashing years of them. The chain is `aureus ledger verify`'s to check, not a lookup's.
 */
export async function readJournalTail(path: string, maxBytes: number): Promise<JournalLine[]> {
  const stats = await lstat(path).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (stats === undefined) return [];
  refuseNonFile(path, stats);
  const handle = await open(path, constants.O_RDONLY | noFollow()).catch((error: unknown) => {
    throw openFailure(path, error);
  });
  try {
    const size = (await handle.stat()).size;
    const start = Math.max(0, size - maxBytes);
    const lines = (await readRange(handle, start, size)).toString('utf8').split('\n');
    // The window's first piece may be the second half of a line: never trust it.
    return (start > 0 ? lines.slice(1) : lines).flatMap((line) => {
      const checked = checkLine(line);
      if (checked.kind === 'newer') throw newerNearEnd(path, checked.format);
      return checked.kind === 'valid' ? [checked.line] : [];
    });
  } finally {
    await handle.close();
  }
}

/**
 * The journal's length after an append, or null to keep the anchor as it is. Counting the
 * file's lines on every append would read the whole ledger on the hook's path, so the count is
 * carried forward from the previous anchor when the line just written follows the anchored line
 * directly; the file is read only when it does not (no anchor yet, a torn or foreign tail, an
 * anchor left behind). A file that no longer holds the anchored line lost lines before this
 * append: re-anchoring on it would hide the loss, so the old anchor stays, and `ledger verify`
 * keeps failing until someone accepts the loss by removing it.
 */
async function newLength(
  path: string,
  appended: Appended,
  store: AnchorStore,
): Promise<number | null> {
  const previous = await store.read();
  if (previous !== null && appended.followsLastLine && previous.hash === appended.line.prev)
    return previous.lines + 1;
  const text = (await readJournalText(path)) ?? '';
  if (previous !== null && anchorProblem(text, previous) !== null) return null;
  // Every appended line ends with a newline, so their count is the last line's number; a
  // compaction summary on line 1 counts as the lines it replaced.
  const summary = summaryAt(text.slice(0, Math.max(0, text.indexOf('\n'))));
  let count = summary === null ? 0 : summary.lines - 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

// ---- appending -------------------------------------------------------------------------------

interface PendingLine {
  serialized: string;
  record: JsonObject;
}

interface Appended {
  line: JournalLine;
  /** The line went right after the file's last line, itself valid: nothing torn or foreign between. */
  followsLastLine: boolean;
}

async function appendLocked(
  path: string,
  pending: PendingLine,
  now: () => Date,
  lockLost: () => boolean,
): Promise<Appended> {
  // O_APPEND: every write lands at the end even if the lock were ever broken; O_NOFOLLOW:
  // a journal that is a symlink is refused, as readers do.
  const flags = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | noFollow();
  const handle = await open(path, flags, 0o644).catch((error: unknown) => {
    throw openFailure(path, error);
  });
  try {
    const stats = await handle.stat();
    refuseNonFile(path, stats);
    const tail = await readTail(handle, stats.size);
    const prev = tail.lastHash;
    // Stamped under the lock, so that the order of lines is also the order of their times.
    const at = now().toISOString();
    const line = formatLine(prev, at, pending.serialized);
    // A torn tail (killed writer) has no newline: start a fresh line so the fragment stays alone.
    const text = tail.endsWithNewline ? `${line.text}\n` : `\n${line.text}\n`;
    if (lockLost()) throw lockLostError(path);
    await writeAll(handle, Buffer.from(text, 'utf8'));
    await handle.sync();
    if (stats.size === 0) await fsyncDirectory(dirname(path));
    return {
      line: { at, prev, hash: line.hash, record: pending.record },
      followsLastLine: tail.lastLineValid && tail.endsWithNewline,
    };
  } finally {
    await handle.close();
  }
}

interface Tail {
  /** Hash of the last valid line, or the genesis hash if there is none. */
  lastHash: string;
  endsWithNewline: boolean;
  /** The file's last line is the valid line whose hash is `lastHash` (or the file is empty). */
  lastLineValid: boolean;
}

async function readTail(handle: FileHandle, size: number): Promise<Tail> {
  if (size === 0) return { lastHash: GENESIS_HASH, endsWithNewline: true, lastLineValid: true };
  const start = Math.max(0, size - TAIL_BYTES);
  const window = await readRange(handle, start, size);
  const endsWithNewline = window.length === 0 || window[window.length - 1] === 0x0a;
  const lines = window.toString('utf8').split('\n');
  // The window's first piece may be the second half of a line: never trust it.
  const candidates = (start > 0 ? lines.slice(1) : lines).reverse();
  // The piece after the final newline is empty; the one before it is the file's last line.
  const last = endsWithNewline ? 1 : 0;
  for (const [index, line] of candidates.entries()) {
    const checked = checkLine(line);
    // Appending a line of this format after a newer one would mix two chains' rules.
    if (checked.kind === 'newer') throw newerNearEnd('the journal', checked.format);
    if (checked.kind === 'valid')
      return { lastHash: checked.line.hash, endsWithNewline, lastLineValid: index === last };
  }
  if (start === 0) return { lastHash: GENESIS_HASH, endsWithNewline, lastLineValid: false };
  // More than 64 KiB of damage after the last valid line: rare, so only then read it all.
  const whole = (await readRange(handle, 0, size)).toString('utf8');
  const lastHash = parseJournal(whole).entries.at(-1)?.hash ?? GENESIS_HASH;
  return { lastHash, endsWithNewline, lastLineValid: false };
}

/** Reads bytes [start, end) through the already opened (never re-resolved) handle. */
async function readRange(handle: FileHandle, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.alloc(end - start);
  let filled = 0;
  while (filled < bytes.length) {
    const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return bytes.subarray(0, filled);
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  // One write() call; the loop only runs again if the OS reports a short write.
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/** Takes the journal's inter-process lock (the one appends hold); returns its release. */
export async function lockJournal(
  path: string,
  onCompromised: () => void,
): Promise<() => Promise<void>> {
  // Loaded on first append: readers (ledger show/verify) never need it. A CommonJS module: its
  // exports are read from `default`, which Node and the bundlers agree on.
  const lockfile = (await import('proper-lockfile')).default;
  return lockfile
    .lock(path, {
      realpath: false,
      // A writer holds the lock for milliseconds and refreshes it every 2.5 s; a lock untouched
      // for 5 s belongs to a killed process and is taken over.
      stale: 5000,
      // Randomized backoff, capped low so that 50 writers queueing on one ledger all get
      // through (up to about a minute of waiting before giving up).
      retries: { retries: 600, factor: 1.3, minTimeout: 2, maxTimeout: 100, randomize: true },
      // The default throws from a timer and kills the process; a lost lock only aborts this append.
      onCompromised,
    })
    .catch((error: unknown) => {
      if (errnoCode(error) !== 'ELOCKED') throw error;
      throw new AureusError(
        `could not lock ${path}: another process kept it locked for too long`,
        `if no AUREUS process is running, delete the folder ${path}.lock and retry`,
      );
    });
}

function lockLostError(path: string): AureusError {
  return new AureusError(
    `lost the lock on ${path} before writing (the process stalled for more than 5 s); nothing was appended`,
    'retry the command',
  );
}

function newerNearEnd(path: string, format: number): NewerJournalFormat {
  return new NewerJournalFormat(`a line near the end of ${path}`, format);
}

// ---- records and files -----------------------------------------------------------------------

function refuseNonFile(
  path: string,
  stats: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean },
): void {
  if (stats.isFile()) return;
  if (stats.isSymbolicLink()) throw notAFile(path, 'a symbolic link');
  throw notAFile(path, stats.isDirectory() ? 'a directory' : 'not a regular file');
}

function openFailure(path: string, error: unknown): unknown {
  const code = errnoCode(error);
  if (code === 'ELOOP') return notAFile(path, 'a symbolic link');
  if (code === 'EISDIR') return notAFile(path, 'a directory');
  return error;
}

function notAFile(path: string, what: string): AureusError {
  return new AureusError(
    `journal ${path} is ${what}; AUREUS reads and appends only regular files and never follows links`,
    `replace ${path} with a regular file, or remove it to start an empty journal`,
  );
}

function noFollow(): number {
  // Not defined on Windows; there the lstat check is the only guard.
  return constants.O_NOFOLLOW ?? 0;
}
