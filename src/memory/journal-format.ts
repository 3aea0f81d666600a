import * as crypto from 'node:crypto';
import { AureusError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';

/**
 * The line format of an append-only JSON Lines journal (ledger, history, …). Pure: no I/O.
 *
 * A line is `{"v":2,"at":…,"prev":…,"record":…,"hash":…}` where `hash` is the SHA-256 of the
 * line's own text up to `,"hash":` and `prev` is the hash of the previous valid line. The hash is
 * the line's checksum and its link in the chain, so any reader detects an edited, deleted or
 * reordered line (THREATS.md rule 10). Hashing the bytes as written, rather than a
 * re-serialization of the parsed record, keeps verification to one hash per line.
 *
 * `v` is the line format. Format 1 (no `v`) is read as it is: its lines mean the same, only a
 * format-2 journal may open with a compaction summary (journal-compaction.ts). A line of a newer
 * format is refused, never guessed at: its chain may follow rules this reader does not know.
 */

/** The line format this AUREUS writes; it reads this one and format 1. */
export const JOURNAL_FORMAT = 2;

/** `prev` of the first line. */
export const GENESIS_HASH = '0'.repeat(64);
/** Bigger records are refused: one line must stay one small write and cheap to read back. */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** `,"hash":"` + 64 hex digits + `"}`: the fixed end of every line. */
const HASH_SUFFIX_LENGTH = 9 + 64 + 2;

export interface JournalLine {
  at: string;
  prev: string;
  hash: string;
  record: JsonObject;
}

export interface JournalEntry extends JournalLine {
  /** 1-based line number in the file. */
  lineNumber: number;
}

export type JournalProblemKind = 'torn' | 'unparseable' | 'checksum' | 'chain';

export interface JournalProblem {
  lineNumber: number;
  kind: JournalProblemKind;
  message: string;
}

export interface JournalContents {
  /** Lines whose checksum is right, in file order (including those with a `chain` problem). */
  entries: JournalEntry[];
  /**
   * Lines a compaction summary on line 1 stands for beyond itself: line N of the file is line
   * N + lineOffset of the journal as it was written, which anchors count (0 without a summary).
   */
  lineOffset: number;
  problems: JournalProblem[];
  /** No problem at all: nothing torn, edited, deleted or reordered. */
  intact: boolean;
}

/**
 * What a writer keeps of its journal outside the file: how many lines it had after the last
 * append and that last line's hash. A file cut short, or deleted, no longer matches it.
 */
export interface JournalAnchor {
  lines: number;
  hash: string;
}

/**
 * What is wrong with `text` (null: the file is missing) against its anchor, or null. Anchors
 * count the lines as written, so a compaction summary on line 1 stands for the lines it replaced.
 */
export function anchorProblem(text: string | null, anchor: JournalAnchor): string | null {
  const expected = `the anchor records ${anchor.lines} line(s) ending with hash ${anchor.hash.slice(0, 12)}`;
  if (text === null) return `the ledger file is missing, but ${expected}: all its lines were lost`;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const summary = summaryAt(lines[0] ?? '');
  const offset = summary === null ? 0 : summary.lines - 1;
  if (summary !== null && anchor.lines <= summary.lines) {
    if (anchor.lines === summary.lines && anchor.hash === summary.tail) return null;
    return `${expected}, but line 1 is a compaction summary of lines 1-${summary.lines}, which no longer holds line ${anchor.lines}: check that line in the backup taken before the compaction`;
  }
  if (lines.length + offset < anchor.lines)
    return `the ledger has ${lines.length + offset} line(s), but ${expected}: its last ${anchor.lines - lines.length - offset} line(s) were deleted`;
  const checked = checkLine(lines[anchor.lines - offset - 1] ?? '');
  const found =
    checked.kind === 'unparseable' ? 'no readable hash' : `hash ${checked.line.hash.slice(0, 12)}`;
  if (checked.kind === 'valid' && checked.line.hash === anchor.hash) return null;
  return `line ${anchor.lines} has ${found}, but ${expected}: the ledger was cut and rewritten`;
}

/** The text of one line (without its newline) and its hash. */
export function formatLine(
  prev: string,
  at: string,
  serializedRecord: string,
): { text: string; hash: string } {
  const body = `{"v":${JOURNAL_FORMAT},"at":${JSON.stringify(at)},"prev":"${prev}","record":${serializedRecord}`;
  const hash = sha256hex(body);
  return { text: `${body},"hash":"${hash}"}`, hash };
}

/**
 * Verifies journal text (a file, or a ledger read from a git blob). Never throws on content,
 * except a line of a newer format than this AUREUS reads (NewerJournalFormat).
 */
export function parseJournal(text: string): JournalContents {
  const lines = text.split('\n');
  const torn = text.length > 0 && !text.endsWith('\n');
  const entries: JournalEntry[] = [];
  const problems: JournalProblem[] = [];
  // The link the next line must name: the last line with a readable hash. An edited line still
  // links its successor, so one edit is reported once (as `checksum`), not twice.
  let link: { hash: string; lineNumber: number } | undefined;
  // A compaction summary is honoured on line 1 only: the lines it replaced were the file's start.
  const summary = summaryAt(lines[0] ?? '');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    const lineNumber = index + 1;
    const checked = checkLine(line);
    if (checked.kind === 'newer') throw new NewerJournalFormat(lineNumber, checked.format);
    if (checked.kind === 'unparseable') {
      const isTornTail = torn && index === lines.length - 1;
      problems.push(lineProblem(lineNumber, isTornTail ? 'torn' : 'unparseable'));
      continue;
    }
    const { line: parsed } = checked;
    if (parsed.prev !== (link?.hash ?? GENESIS_HASH))
      problems.push(chainProblem(lineNumber, link?.lineNumber));
    if (checked.kind === 'checksum') problems.push(lineProblem(lineNumber, 'checksum'));
    else entries.push({ lineNumber, ...parsed });
    // The line after a summary links to the last line it replaced, which it records.
    const hash = index === 0 && summary !== null ? summary.tail : parsed.hash;
    link = { hash, lineNumber };
  }
  const lineOffset = summary === null ? 0 : summary.lines - 1;
  return { entries, lineOffset, problems, intact: problems.length === 0 };
}

/** A journal line of a newer format than JOURNAL_FORMAT: refused rather than misread. */
export class NewerJournalFormat extends AureusError {
  constructor(where: number | string, format: number) {
    const line = typeof where === 'number' ? `line ${where} of the journal` : where;
    super(
      `${line} is in line format ${format}, written by a newer AUREUS; this AUREUS reads formats 1 to ${JOURNAL_FORMAT}`,
      `read and write this journal with an AUREUS that reads journal format ${format} (the one that wrote it, or newer): upgrade AUREUS`,
    );
  }
}

/** What a compaction summary replaced: how many lines, and the hash of the last of them. */
export interface SummaryLink {
  lines: number;
  tail: string;
}

/** The record kind of a compaction summary; no other writer may use it (appendToJournal refuses it). */
export const SUMMARY_KIND = 'compaction';

/** The summary `raw` is (a valid format-2 first line of kind `compaction`), or null. */
export function summaryAt(raw: string): SummaryLink | null {
  const checked = checkLine(raw);
  if (checked.kind !== 'valid' || checked.format < 2 || checked.line.prev !== GENESIS_HASH)
    return null;
  const { record } = checked.line;
  const replaced = record.replaced;
  if (record.kind !== SUMMARY_KIND || !isPlainObject(replaced)) return null;
  const { lines, tail } = replaced;
  if (typeof lines !== 'number' || !Number.isSafeInteger(lines) || lines < 1) return null;
  if (typeof tail !== 'string' || !/^[0-9a-f]{64}$/.test(tail)) return null;
  return { lines, tail };
}

/** `newer`: a line whose checksum holds, in a format past JOURNAL_FORMAT. */
type LineCheck =
  | { kind: 'valid' | 'checksum' | 'newer'; line: JournalLine; format: number }
  | { kind: 'unparseable' };

/** Parses one line and checks its hash against its own text. */
export function checkLine(raw: string): LineCheck {
  // A journal that passed through a Windows checkout may carry CRLF endings; the hash never covers them.
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const bodyEnd = text.length - HASH_SUFFIX_LENGTH;
  if (bodyEnd <= 0 || !text.startsWith(',"hash":"', bodyEnd) || !text.endsWith('"}')) {
    return { kind: 'unparseable' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unparseable' };
  }
  if (!isJournalLine(value) || value.hash !== text.slice(bodyEnd + 9, -2))
    return { kind: 'unparseable' };
  const format = value.v ?? 1;
  const line = { at: value.at, prev: value.prev, hash: value.hash, record: value.record };
  const hashed = sha256hex(text.slice(0, bodyEnd)) === value.hash;
  // Only a line whose checksum holds speaks for a format: an edit must not turn into a refusal.
  if (format > JOURNAL_FORMAT && hashed) return { kind: 'newer', line, format };
  return { kind: hashed ? 'valid' : 'checksum', line, format };
}

/** Serializes a record once, refusing anything that would not read back identical. */
export function serializeRecord(record: JsonObject): string {
  const problem = isPlainObject(record)
    ? nonJsonAt(record, 'record', new Set())
    : 'record is not a JSON object';
  if (problem !== undefined) {
    throw new AureusError(
      `cannot append to the journal: ${problem}`,
      'pass plain JSON data only: objects, arrays, strings, finite numbers, booleans and null (e.g. dates as ISO strings)',
    );
  }
  const serialized = JSON.stringify(record);
  const bytes = Buffer.byteLength(serialized, 'utf8');
  if (bytes > MAX_RECORD_BYTES) {
    throw new AureusError(
      `cannot append to the journal: the record is ${bytes} bytes serialized, more than the 1 MiB limit`,
      'store large data (patches, evidence, reports) in a file of its own and put its path or hash in the record',
    );
  }
  return serialized;
}

function isJournalLine(value: unknown): value is JournalLine & { v?: number } {
  if (!isPlainObject(value)) return false;
  const { v, at, prev, hash, record } = value;
  if (v !== undefined && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 1))
    return false;
  return (
    typeof at === 'string' &&
    typeof prev === 'string' &&
    typeof hash === 'string' &&
    isPlainObject(record)
  );
}

// One-shot crypto.hash (Node >= 20.12) costs about half of createHash per line; reading a long
// ledger is one hash per line, so it shows.
const sha256hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

type LineProblemKind = Exclude<JournalProblemKind, 'chain'>;

function lineProblem(lineNumber: number, kind: LineProblemKind): JournalProblem {
  const messages: Record<LineProblemKind, string> = {
    torn: `line ${lineNumber} is incomplete (no newline at the end): a writer was interrupted mid-append; skipped`,
    unparseable: `line ${lineNumber} is not a journal entry (not JSON, or missing at/prev/record/hash); skipped`,
    checksum: `line ${lineNumber} was edited after it was written (its hash does not match its content); skipped`,
  };
  return { lineNumber, kind, message: messages[kind] };
}

function chainProblem(lineNumber: number, previousLine: number | undefined): JournalProblem {
  const previous = previousLine === undefined ? 'the start of the journal' : `line ${previousLine}`;
  return {
    lineNumber,
    kind: 'chain',
    message: `line ${lineNumber} does not follow ${previous}: a line between them was deleted, reordered or rewritten`,
  };
}

/** Describes the first value that JSON would change or drop, or undefined if there is none. */
function nonJsonAt(value: unknown, path: string, ancestors: Set<object>): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : `${path} is ${value}, not a finite number`;
  }
  if (typeof value !== 'object') return `${path} is ${typeof value}, not JSON`;
  if (ancestors.has(value)) return `${path} refers back to itself`;
  if (!Array.isArray(value) && !isPlainObject(value)) return `${path} is not a plain object`;
  ancestors.add(value);
  const children: [string, unknown][] = Array.isArray(value)
    ? Array.from(value, (item, index) => [`${path}[${index}]`, item])
    : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item]);
  for (const [childPath, child] of children) {
    const problem = nonJsonAt(child, childPath, ancestors);
    if (problem !== undefined) return problem;
  }
  ancestors.delete(value);
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  // Checked by shape, not identity, so objects from another realm (vm, worker) still count.
  return proto === null || Object.getPrototypeOf(proto) === null;
}
