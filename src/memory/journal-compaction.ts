import type { JsonObject } from '../model/json.js';
import {
  formatLine,
  GENESIS_HASH,
  type JournalContents,
  type JournalEntry,
  SUMMARY_KIND,
  serializeRecord,
  summaryAt,
} from './journal-format.js';

/**
 * Retention without losing the chain. Pure: text in, text out.
 *
 * The entries older than the cutoff become ONE summary line at the top of the file: a format-2
 * line of kind `compaction` with `prev` the genesis hash, which records how many lines it stands
 * for, their first and last times, their totals per kind and verdict, and the hash of the last
 * line it replaced (`replaced.tail`). The kept lines stay byte for byte, so the first of them
 * still names that hash as its `prev`: a reader takes the summary's link to be `replaced.tail`,
 * and the whole file verifies. Anchors count lines as written, the summary counting as the lines
 * it replaced, so an anchor taken before the compaction (the local one, or one a check run
 * carries) still names the same line. The newest line is always kept: it is the anchor's.
 *
 * The summary is the compression: the replaced lines are gone from the file, their totals stay,
 * and the backup taken before the compaction holds them whole.
 */
export interface Compacted {
  text: string;
  /** Entries the new summary stands for, an earlier summary's included. */
  entries: number;
  /** Lines removed from the file this time (an earlier summary counts as one). */
  removed: number;
  summary: JsonObject;
}

/**
 * The journal with every entry older than `cutoff` (ISO time) replaced by one summary, or null
 * when there is nothing to replace. `contents` must be `parseJournal(text)` of an intact journal.
 */
export function compactJournalText(
  text: string,
  contents: JournalContents,
  cutoff: string,
  compactedAt: string,
): Compacted | null {
  const previous = summaryAt(text.slice(0, Math.max(0, text.indexOf('\n'))));
  const entries = contents.entries;
  const first = previous === null ? 0 : 1;
  let end = first;
  // The newest line stays whatever its age: the anchor names it, and appends link to it.
  while (end < entries.length - 1 && (entries[end]?.at ?? '') < cutoff) end++;
  const last = entries[end - 1];
  if (end === first || last === undefined) return null;
  const summary = summaryRecord(
    previous === null ? null : (entries[0]?.record ?? null),
    entries.slice(first, end),
    last,
    contents.lineOffset,
    compactedAt,
  );
  const line = formatLine(GENESIS_HASH, last.at, serializeRecord(summary));
  const lines = text.split('\n');
  const kept = lines.slice(last.lineNumber).join('\n');
  return { text: `${line.text}\n${kept}`, entries: countOf(summary), removed: end, summary };
}

function summaryRecord(
  earlier: JsonObject | null,
  replaced: readonly JournalEntry[],
  last: JournalEntry,
  lineOffset: number,
  compactedAt: string,
): JsonObject {
  const before = objectAt(earlier, 'replaced');
  const kinds = tally(objectAt(before, 'kinds'), replaced, 'kind');
  const verdicts = tally(objectAt(before, 'verdicts'), replaced, 'verdict');
  const overrides =
    numberAt(before, 'overrides') +
    replaced.filter((entry) => isObject(entry.record.override)).length;
  const costTotal =
    numberAt(before, 'costTotal') +
    replaced.reduce((sum, entry) => sum + numberAt(objectAt(entry.record, 'cost'), 'total'), 0);
  const from = typeof before?.from === 'string' ? before.from : (replaced[0]?.at ?? last.at);
  return {
    kind: SUMMARY_KIND,
    compactedAt,
    replaced: {
      // Lines as written: the last replaced line's number in the journal before any compaction.
      lines: last.lineNumber + lineOffset,
      entries: numberAt(before, 'entries') + replaced.length,
      from,
      to: last.at,
      tail: last.hash,
      kinds,
      verdicts,
      overrides,
      costTotal,
      // Who asked for each builder run: the App reads it to keep a run's requester from
      // approving its pull request, however long ago the run was recorded.
      builderRuns: [...builderRunsIn(before), ...replaced.flatMap(builderRunOf)],
      // Who let each replaced entry through (an override, a policy loosening's approval):
      // `aureus ledger show` still names every one after a compaction.
      letThrough: [...letThroughIn(before), ...replaced.flatMap(letThroughOf)],
    },
  };
}

/** The requester of a builder run the App accepted, as a summary keeps it. */
function builderRunOf(entry: JournalEntry): JsonObject[] {
  const { kind, decision, issue, run, actorId } = entry.record;
  return kind === 'builder-trigger' &&
    decision === 'accepted' &&
    typeof issue === 'number' &&
    typeof run === 'string' &&
    typeof actorId === 'number'
    ? [{ issue, run, actorId }]
    : [];
}

/** An entry's override and policy approval, with its time and commit, as a summary keeps them. */
function letThroughOf(entry: JournalEntry): JsonObject[] {
  const { override, policyApproval, head, commit } = entry.record;
  if (!isObject(override) && !isObject(policyApproval)) return [];
  const named = typeof commit === 'string' ? commit : typeof head === 'string' ? head : null;
  return [
    {
      at: entry.at,
      head: named,
      ...(isObject(override) ? { override } : {}),
      ...(isObject(policyApproval) ? { policyApproval } : {}),
    },
  ];
}

/** The let-throughs an earlier summary kept. */
export function letThroughIn(replaced: JsonObject | undefined): JsonObject[] {
  const kept = replaced?.letThrough;
  return Array.isArray(kept) ? kept.filter(isObject) : [];
}

/** The builder runs an earlier summary kept. */
export function builderRunsIn(replaced: JsonObject | undefined): JsonObject[] {
  const runs = replaced?.builderRuns;
  return Array.isArray(runs) ? runs.filter(isObject) : [];
}

function tally(
  earlier: JsonObject | undefined,
  entries: readonly JournalEntry[],
  field: string,
): JsonObject {
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(earlier ?? {}))
    if (typeof value === 'number') counts[key] = value;
  for (const entry of entries) {
    const value = entry.record[field];
    if (typeof value === 'string') counts[value] = (counts[value] ?? 0) + 1;
  }
  return counts;
}

function countOf(summary: JsonObject): number {
  return numberAt(objectAt(summary, 'replaced'), 'entries');
}

function objectAt(value: JsonObject | null | undefined, key: string): JsonObject | undefined {
  const found = value?.[key];
  return isObject(found) ? found : undefined;
}

function numberAt(value: JsonObject | undefined, key: string): number {
  const found = value?.[key];
  return typeof found === 'number' && Number.isFinite(found) ? found : 0;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
