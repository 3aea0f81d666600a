import { isRecord, type JsonObject } from '../model/json.js';
import {
  checkLine,
  GENESIS_HASH,
  type JournalContents,
  type JournalEntry,
  type JournalProblem,
  NewerJournalFormat,
  summaryAt,
} from './journal-format.js';

export interface LedgerEntryFile {
  readonly path: string;
  readonly text: string;
}

/** The file beside `entries/` that names the newest entry: where the next one links. */
export const SHARED_LEDGER_TIP = 'tip.json';
/**
 * The file beside `entries/` that a compaction writes: one summary line (journal-compaction.ts)
 * standing for the entries it removed, whose `replaced.tail` the oldest kept entry links to.
 */
export const SHARED_LEDGER_SUMMARY = 'summary.json';

export interface SharedLedgerContents extends JournalContents {
  /** Entries written before the chain began: no entry links to them, only their checksum holds. */
  readonly unchained: number;
}

interface VerifiedFile {
  readonly path: string;
  /** Position of the file in the listing, for problems. */
  readonly number: number;
  readonly entry: JournalEntry;
  /** What the next entry names as `prev`: the entry's hash, or a summary's `replaced.tail`. */
  readonly link: string;
}

export interface SharedLedgerTip {
  readonly entry: string;
  readonly hash: string;
  /**
   * The time of the oldest entry on the branch (past the summary), which appends carry forward
   * and a compaction moves: it says when a compaction is due without reading any entry. A tip
   * written before it existed has none.
   */
  readonly since?: string;
}

/** The tip file's text for the newest entry. */
export function sharedLedgerTip(entry: string, hash: string, since?: string): string {
  return `${JSON.stringify({ entry, hash, ...(since === undefined ? {} : { since }) })}\n`;
}

/** The newest entry the tip file names, or undefined when the text is not a tip. */
export function readSharedLedgerTip(text: string): SharedLedgerTip | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    if (!('entry' in value) || !('hash' in value)) return undefined;
    const { entry, hash } = value;
    if (typeof entry !== 'string' || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      return undefined;
    const since = 'since' in value ? value.since : undefined;
    return typeof since === 'string' && !Number.isNaN(Date.parse(since))
      ? { entry, hash, since }
      : { entry, hash };
  } catch {
    return undefined;
  }
}

/**
 * The shared ledger's files (`entries/<sha>.json`, one checksummed journal line each, and
 * `tip.json`) read as one journal, oldest first. A file whose line does not verify, or whose
 * record is about another commit than its name says, is reported and skipped: an entry moved or
 * edited on the branch is tampering, not history.
 *
 * Each entry's `prev` is the hash of the entry that was newest when it was written, and
 * `tip.json` names the newest, so the entries form one chain whatever their file names: an
 * entry deleted, rewritten (even with its hash recomputed) or moved breaks a link and is
 * reported. Entries written before the chain existed (`prev` all zeros, no entry after them)
 * are counted as unchained, not damaged.
 */
export function parseSharedLedgerFiles(files: readonly LedgerEntryFile[]): SharedLedgerContents {
  const problems: JournalProblem[] = [];
  const verified: VerifiedFile[] = [];
  let tip: { text: string; number: number } | undefined;
  files.forEach((file, index) => {
    const number = index + 1;
    if (file.path === SHARED_LEDGER_TIP) tip = { text: file.text, number };
    else if (file.path === SHARED_LEDGER_SUMMARY) {
      const checked = checkSummaryFile(file, number);
      if ('entry' in checked) verified.push(checked);
      else problems.push(checked);
    } else {
      const checked = checkEntryFile(file, number);
      if ('entry' in checked) verified.push(checked);
      else problems.push(checked);
    }
  });
  const chain = checkChain(verified, tip, files.length + 1);
  problems.push(...chain.problems);
  // The summary stands for the oldest entries: it comes first, even beside one of the same time.
  // Entries are numbered as written, the summary taking the number of the last one it replaced,
  // so a number a proposal or an audit cited still names the same entry after a compaction.
  const summary = verified.find((file) => file.path === SHARED_LEDGER_SUMMARY);
  const offset = summary === undefined ? 0 : replacedLines(summary.entry.record) - 1;
  const entries = verified
    .map((file) => ({ entry: file.entry, summary: file === summary }))
    .sort((a, b) => a.entry.at.localeCompare(b.entry.at) || Number(b.summary) - Number(a.summary))
    .map(({ entry }, index) => ({ ...entry, lineNumber: index + 1 + offset }));
  problems.sort((a, b) => a.lineNumber - b.lineNumber);
  return {
    entries,
    lineOffset: 0,
    problems,
    intact: problems.length === 0,
    unchained: chain.unchained,
  };
}

function replacedLines(record: JsonObject): number {
  const replaced = record.replaced;
  const lines = isRecord(replaced) ? replaced.lines : undefined;
  return typeof lines === 'number' && Number.isSafeInteger(lines) && lines > 0 ? lines : 1;
}

function checkEntryFile(file: LedgerEntryFile, lineNumber: number): VerifiedFile | JournalProblem {
  const lines = file.text.split('\n').filter((line) => line !== '');
  const checked = lines.length === 1 && lines[0] !== undefined ? checkLine(lines[0]) : null;
  if (checked === null || checked.kind === 'unparseable') {
    return { lineNumber, kind: 'unparseable', message: `${file.path} is not one ledger line` };
  }
  if (checked.kind === 'newer') throw new NewerJournalFormat(lineNumber, checked.format);
  if (checked.kind === 'checksum') {
    return {
      lineNumber,
      kind: 'checksum',
      message: `${file.path} was edited: its checksum does not match`,
    };
  }
  const named = /([0-9a-f]{40,64})\.json$/.exec(file.path)?.[1];
  if (named === undefined || checked.line.record.head !== named) {
    return {
      lineNumber,
      kind: 'chain',
      message: `${file.path} holds the entry of another commit`,
    };
  }
  const entry = { ...checked.line, lineNumber };
  return { path: file.path, number: lineNumber, entry, link: entry.hash };
}

/** The compaction summary: one line that verifies, of kind `compaction`, linked by its tail. */
function checkSummaryFile(
  file: LedgerEntryFile,
  lineNumber: number,
): VerifiedFile | JournalProblem {
  const lines = file.text.split('\n').filter((line) => line !== '');
  const line = lines.length === 1 ? (lines[0] ?? '') : '';
  const checked = checkLine(line);
  if (checked.kind === 'newer') throw new NewerJournalFormat(lineNumber, checked.format);
  if (checked.kind === 'checksum')
    return {
      lineNumber,
      kind: 'checksum',
      message: `${file.path} was edited: its checksum does not match`,
    };
  const summary = summaryAt(line);
  if (checked.kind === 'unparseable' || summary === null)
    return {
      lineNumber,
      kind: 'unparseable',
      message: `${file.path} is not one compaction summary line`,
    };
  return {
    path: file.path,
    number: lineNumber,
    entry: { ...checked.line, lineNumber },
    link: summary.tail,
  };
}

/** Every broken link between the verified entries and the tip, and how many predate the chain. */
function checkChain(
  verified: readonly VerifiedFile[],
  tip: { text: string; number: number } | undefined,
  afterLast: number,
): { problems: JournalProblem[]; unchained: number } {
  const problems: JournalProblem[] = [];
  const chain = (lineNumber: number, message: string) =>
    problems.push({ lineNumber, kind: 'chain', message });
  const byHash = new Map(verified.map((file) => [file.link, file]));
  const next = new Map<string, VerifiedFile[]>();
  for (const file of verified)
    next.set(file.entry.prev, [...(next.get(file.entry.prev) ?? []), file]);

  const tipHash = tip === undefined ? undefined : readSharedLedgerTip(tip.text)?.hash;
  if (tip !== undefined && tipHash === undefined) {
    problems.push({
      lineNumber: tip.number,
      kind: 'unparseable',
      message: `${SHARED_LEDGER_TIP} is not {"entry":…,"hash":…}`,
    });
  }
  const linked = verified.filter((file) => file.entry.prev !== GENESIS_HASH);
  if (tip === undefined && linked.length > 0) {
    chain(afterLast, `${SHARED_LEDGER_TIP} is missing, yet entries are chained: it was deleted`);
  }
  if (tip !== undefined && tipHash !== undefined) {
    const newest = byHash.get(tipHash);
    const after = next.get(tipHash)?.[0];
    if (newest === undefined) {
      const named = readSharedLedgerTip(tip.text)?.entry ?? 'an entry';
      chain(
        tip.number,
        `${SHARED_LEDGER_TIP} names ${named}, which is not in the ledger: the newest entry was deleted or rewritten`,
      );
    } else if (after !== undefined) {
      chain(
        tip.number,
        `${SHARED_LEDGER_TIP} names ${newest.path}, but ${after.path} follows it: ${SHARED_LEDGER_TIP} was moved back`,
      );
    }
  }

  for (const file of linked) {
    const before = byHash.get(file.entry.prev);
    if (before === undefined) {
      chain(
        file.number,
        `${file.path} follows an entry that is not in the ledger: the entry before it was deleted or rewritten`,
      );
    }
    const [first, ...others] = next.get(file.entry.prev) ?? [];
    if (first !== undefined && first !== file && others.includes(file)) {
      chain(
        file.number,
        `${file.path} and ${first.path} both follow ${before?.path ?? 'the same entry'}: an entry was moved or inserted`,
      );
    }
  }

  // Entries no other entry follows: the tip, the unchained ones from before the chain, and
  // every place where the chain was cut.
  const starts = next.get(GENESIS_HASH) ?? [];
  const isEnd = (file: VerifiedFile) =>
    file.link !== tipHash && (next.get(file.link) ?? []).length === 0;
  // A summary always has a successor (the newest entry is never compacted): alone, it is cut off.
  const isSummary = (file: VerifiedFile) => file.path === SHARED_LEDGER_SUMMARY;
  for (const file of starts.filter((start) => isSummary(start) && isEnd(start))) {
    chain(
      file.number,
      `${file.path} is followed by no entry: the entry after the ones it replaced was deleted, or it was rewritten`,
    );
  }
  const unchained = starts.filter((file) => isEnd(file) && !isSummary(file));
  const chainStarts = starts.filter((file) => !isEnd(file));
  for (const file of chainStarts.slice(1)) {
    chain(
      file.number,
      `${file.path} starts a second chain beside ${chainStarts[0]?.path}: an entry was moved or inserted`,
    );
  }
  for (const file of linked.filter(isEnd)) {
    chain(
      file.number,
      `${file.path} is followed by no entry, yet it is not the newest: it was rewritten, or the entry after it was deleted`,
    );
  }
  const began = [...chainStarts, ...linked].map((file) => file.entry.at).sort()[0];
  const inserted = unchained.filter((file) => began !== undefined && file.entry.at >= began);
  for (const file of inserted) {
    chain(
      file.number,
      `${file.path} is not linked into the chain, yet it was written after the chain began: it was inserted, or written by an AUREUS older than the chain`,
    );
  }
  return { problems, unchained: unchained.length - inserted.length };
}
