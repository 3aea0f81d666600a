import { constants, open, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AureusError } from '../model/errors.js';
import { fsyncDirectory, writeFileAtomic } from './atomic-write.js';
import { type AnchorStore, lockJournal, readJournalText } from './journal.js';
import { type Compacted, compactJournalText } from './journal-compaction.js';
import { anchorProblem, checkLine, parseJournal, summaryAt } from './journal-format.js';

/**
 * Retention of a journal file: compaction with a backup first (journal-compaction.ts says what a
 * summary keeps), and restoring a damaged journal from such a backup. Both run under the lock
 * appends take, and replace the file atomically.
 */

/** How many backups a journal keeps beside it: the newest ones, older ones are removed. */
export const KEPT_BACKUPS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CompactOptions {
  days: number;
  now: Date;
  anchor?: AnchorStore | undefined;
}

export type CompactResult =
  | { status: 'compacted'; compacted: Compacted; backup: string }
  | { status: 'nothing' }
  /** The journal does not verify: compacting would bury the damage under a summary. */
  | { status: 'damaged'; problem: string };

/** `aureus ledger compact`: compacts under the journal's lock. */
export async function compactJournalFile(
  path: string,
  options: CompactOptions,
): Promise<CompactResult> {
  const release = await lockJournal(path, () => undefined);
  try {
    return await compactLocked(path, options);
  } finally {
    await release();
  }
}

/**
 * What an append runs under its lock (AppendOptions.whileLocked) to keep `days` of entries, or
 * undefined when 0 keeps them all.
 */
export function compactionWhenDue(
  path: string,
  days: number,
  anchor?: AnchorStore,
): (() => Promise<void>) | undefined {
  if (days <= 0) return undefined;
  return () => compactIfDue(path, { days, now: new Date(), anchor });
}

/**
 * After an append (the lock held): compacts when the oldest entry is a day past the retention,
 * so a journal is rewritten at most about once a day, however often it is appended to. A
 * journal that does not verify is left as it is, for `ledger verify` to report.
 */
async function compactIfDue(path: string, options: CompactOptions): Promise<void> {
  const oldest = await oldestEntryTime(path);
  if (oldest === null) return;
  if (Date.parse(oldest) >= options.now.getTime() - (options.days + 1) * DAY_MS) return;
  await compactLocked(path, options);
}

async function compactLocked(path: string, options: CompactOptions): Promise<CompactResult> {
  const text = await readJournalText(path);
  if (text === null) return { status: 'nothing' };
  const contents = parseJournal(text);
  const anchor = (await options.anchor?.read()) ?? null;
  const problem =
    contents.problems[0]?.message ?? (anchor === null ? null : anchorProblem(text, anchor));
  if (problem !== null && problem !== undefined) return { status: 'damaged', problem };
  const cutoff = new Date(options.now.getTime() - options.days * DAY_MS).toISOString();
  const compacted = compactJournalText(text, contents, cutoff, options.now.toISOString());
  if (compacted === null) return { status: 'nothing' };
  const backup = await writeBackup(path, text, options.now);
  await writeFileAtomic(path, compacted.text);
  // The anchor counts lines as written and its line is kept: it holds as it is.
  return { status: 'compacted', compacted, backup };
}

/** The time of the oldest entry (past a summary), read from the file's first lines only. */
async function oldestEntryTime(path: string): Promise<string | null> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const lines = head.subarray(0, bytesRead).toString('utf8').split('\n');
    const start = summaryAt(lines[0] ?? '') === null ? 0 : 1;
    // A line cut by the window's end, or a summary longer than it, waits for `ledger compact`.
    const checked = lines.length > start + 1 ? checkLine(lines[start] ?? '') : null;
    return checked === null || checked.kind === 'unparseable' ? null : checked.line.at;
  } finally {
    await handle.close();
  }
}

// ---- backups ---------------------------------------------------------------------------------

/** `<journal>.bak-<UTC time>`: sorts by name in the order they were taken. */
function backupPath(path: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${path}.bak-${stamp}`;
}

async function writeBackup(path: string, text: string, now: Date): Promise<string> {
  const backup = backupPath(path, now);
  await writeFileAtomic(backup, text);
  const older = (await journalBackups(path)).slice(0, -KEPT_BACKUPS);
  for (const stale of older) await rm(stale, { force: true });
  if (older.length > 0) await fsyncDirectory(dirname(path));
  return backup;
}

/** The journal's backups, oldest first. */
export async function journalBackups(path: string): Promise<string[]> {
  const prefix = `${basename(path)}.bak-`;
  const names = await readdir(dirname(path)).catch(() => []);
  return names
    .filter((name) => name.startsWith(prefix) && /^\d{8}T\d{6}Z$/.test(name.slice(prefix.length)))
    .sort()
    .map((name) => join(dirname(path), name));
}

// ---- restore ---------------------------------------------------------------------------------

export interface Restored {
  backup: string;
  /** Lines of the damaged journal, after the backup's last line, kept as they were. */
  kept: number;
  /** Lines after the backup's last line that could not be kept: their line numbers and why. */
  lost: { lineNumber: number; at: string | null; why: string }[];
  /** The journal still held the backup's last line; if not, what followed it cannot be found. */
  tailFound: boolean;
  /**
   * Lines the anchor recorded that the restored journal does not reach (0 when it holds the
   * anchored line): lost, so the anchor is kept and `ledger verify` goes on saying so.
   */
  beyondRestored: number;
}

/**
 * `aureus ledger restore`: replaces a damaged journal with a backup that verifies (the one
 * named, else the newest that does), then keeps the lines the journal gained after it, byte for
 * byte, as long as each still verifies and links to the one before; the first that does not,
 * and every line after it, is reported lost rather than re-chained, since re-chaining would
 * write new hashes over the evidence. The anchor moves to the restored file only when that file
 * still holds the anchored line: a restore must not turn deleted lines into a ledger that
 * verifies, so otherwise the anchor stays as the evidence of what is missing.
 */
export async function restoreJournal(
  path: string,
  from: string | undefined,
  anchor: AnchorStore | undefined,
): Promise<Restored> {
  const release = await lockJournal(path, () => undefined);
  try {
    const anchored = anchor === undefined ? null : await anchor.read();
    const backup = from ?? (await newestSoundBackup(path));
    const backupText = await readJournalText(backup);
    const checked = parseJournal(backupText ?? '');
    if (backupText === null || !checked.intact || checked.entries.length === 0)
      throw new AureusError(
        `${backup} is not a backup to restore from: ${backupText === null ? 'it does not exist' : (checked.problems[0]?.message ?? 'it holds no entry')}`,
        'name another with --from (the backups are the files <ledger>.bak-<time> beside it).',
      );
    const tail = checked.entries.at(-1)?.hash ?? '';
    const { lines, kept, lost, tailFound } = linesAfter((await readJournalText(path)) ?? '', tail);
    const restored = `${backupText}${lines.map((line) => `${line}\n`).join('')}`;
    await writeFileAtomic(path, restored);
    const final = parseJournal(restored);
    const last = final.entries.at(-1);
    const restoredLines = last === undefined ? 0 : last.lineNumber + final.lineOffset;
    const reaches =
      anchored === null ||
      final.entries.some(
        (entry) =>
          entry.lineNumber + final.lineOffset === anchored.lines && entry.hash === anchored.hash,
      );
    if (anchor !== undefined && last !== undefined && reaches)
      await anchor.write({ lines: restoredLines, hash: last.hash });
    const beyondRestored =
      reaches || anchored === null ? 0 : Math.max(1, anchored.lines - restoredLines);
    return { backup, kept, lost, tailFound, beyondRestored };
  } finally {
    await release();
  }
}

async function newestSoundBackup(path: string): Promise<string> {
  const backups = await journalBackups(path);
  for (const backup of backups.reverse()) {
    if (parseJournal((await readJournalText(backup)) ?? '').intact) return backup;
  }
  throw new AureusError(
    `no backup of ${path} verifies (${backups.length} found beside it).`,
    'name a copy of the ledger with --from FILE; backups are taken before each compaction.',
  );
}

/** The damaged journal's lines after the one whose hash is `tail`, while they keep linking. */
function linesAfter(text: string, tail: string): Omit<Restored, 'backup'> & { lines: string[] } {
  const raw = text.split('\n');
  const start = raw.findIndex((line) => {
    const checked = checkLine(line);
    return checked.kind !== 'unparseable' && checked.line.hash === tail;
  });
  const lines: string[] = [];
  const lost: Restored['lost'] = [];
  if (start === -1) {
    // The backup's last line is not in the journal: nothing after it can be told apart.
    return { lines, kept: 0, lost, tailFound: false, beyondRestored: 0 };
  }
  let link = tail;
  for (let index = start + 1; index < raw.length; index++) {
    const line = raw[index] ?? '';
    if (line.trim() === '') continue;
    const checked = checkLine(line);
    const at = checked.kind === 'unparseable' ? null : checked.line.at;
    if (lost.length > 0) lost.push({ lineNumber: index + 1, at, why: 'after a lost line' });
    else if (checked.kind !== 'valid')
      lost.push({ lineNumber: index + 1, at, why: 'damaged (torn, edited or unreadable)' });
    else if (checked.line.prev !== link)
      lost.push({ lineNumber: index + 1, at, why: 'does not link to the line before' });
    else {
      lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
      link = checked.line.hash;
    }
  }
  return { lines, kept: lines.length, lost, tailFound: true, beyondRestored: 0 };
}
