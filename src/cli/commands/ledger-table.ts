import { letThroughIn } from '../../memory/journal-compaction.js';
import type { JournalEntry } from '../../memory/journal-format.js';
import type { JsonObject, JsonValue } from '../../model/json.js';

/**
 * `aureus ledger show` as a reader audits it: a table under headings, one row per entry, then
 * every override and policy approval on its own line (who, why, which commit) — a let-through is
 * the one thing a reader of the ledger must not miss. Ledger text is data: control characters are shown as `?`.
 */
const HEADINGS = ['#', 'WHEN', 'EVENT', 'COMMIT', 'VERDICT', 'COST', 'OVERRIDE'] as const;

/** `entries` are the rows; `ledger`, the whole ledger they come from, holds their commit links. */
export function ledgerTable(
  entries: readonly JournalEntry[],
  ledger: readonly JournalEntry[] = entries,
): string {
  // A hook's check names its commit through the link post-commit appended after it.
  const became = new Map<string, string>();
  for (const { record } of ledger)
    if (record.kind === 'commit') became.set(text(record.check), text(record.commit));
  const commitOf = (entry: JournalEntry) =>
    (became.get(entry.hash) || text(entry.record.commit) || text(entry.record.head)).slice(0, 12);
  const rows = entries.map((entry) => row(entry, commitOf(entry)));
  const widths = HEADINGS.map((heading, column) =>
    Math.max(heading.length, ...rows.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const table = [line(HEADINGS), ...rows.map(line)].join('\n');
  const overrides = entries.flatMap((entry) => overrideLine(entry, commitOf(entry)));
  return overrides.length === 0
    ? `${table}\n`
    : `${table}\n\nOverrides:\n${overrides.map((text) => `  ${text}`).join('\n')}\n`;
}

function row(entry: JournalEntry, commit: string): string[] {
  const { record } = entry;
  const known = text(record.kind) !== '' || text(record.verdict) !== '';
  const cost = record.cost;
  return [
    `${entry.lineNumber}`,
    printable(entry.at),
    // A record of a kind this version does not know is shown whole, clipped.
    known ? event(record) : clip(printable(JSON.stringify(record))),
    commit,
    text(record.verdict),
    isObject(cost) ? text(cost.total) : '',
    letThrough(record)
      .map(({ word, by }) => `${word} (${by})`)
      .join(', '),
  ];
}

/** The kind, then what says which event it was: the checked source, or a builder request's issue, requester and decision. */
function event(record: JsonObject): string {
  const issue = text(record.issue);
  const actor = text(record.actor);
  const details = [
    text(record.source),
    issue === '' ? '' : `#${issue}`,
    actor === '' ? '' : `by ${actor}`,
    text(record.decision),
  ].filter((detail) => detail !== '');
  return details.length === 0 ? text(record.kind) : `${text(record.kind)} (${details.join(', ')})`;
}

/**
 * Who let the entry through: an override (a local one, or a budget approval in the App) and a
 * maintainer's approval of a policy loosening, each with the word the table shows it by.
 */
function letThrough(
  record: JsonObject,
): { word: string; by: string; said: string; reason: string }[] {
  const { override, policyApproval } = record;
  const named = (value: JsonObject, word: string, said: string) => ({
    word,
    by: text(value.by) || '?',
    said,
    reason: text(value.reason) || '?',
  });
  return [
    ...(isObject(override) ? [named(override, 'yes', 'overridden by')] : []),
    ...(isObject(policyApproval)
      ? [named(policyApproval, 'policy', 'policy loosening approved by')]
      : []),
  ];
}

/**
 * The commit is the one a hook's check became, else the head it checked. A compaction summary
 * lists the let-throughs of the entries it replaced, each with its commit and time.
 */
function overrideLine(entry: JournalEntry, commit: string): string[] {
  const { record } = entry;
  const replaced =
    record.kind === 'compaction' && isObject(record.replaced) ? record.replaced : undefined;
  const compacted = letThroughIn(replaced).flatMap((kept) =>
    letThrough(kept).map(
      ({ said, by, reason }) =>
        `#${entry.lineNumber}  ${text(kept.head).slice(0, 12) || 'no commit recorded'}  ${said} ${by}: ${reason} (${text(kept.at)}, compacted)`,
    ),
  );
  return [
    ...letThrough(record).map(
      ({ said, by, reason }) =>
        `#${entry.lineNumber}  ${commit || 'no commit recorded'}  ${said} ${by}: ${reason}`,
    ),
    ...compacted,
  ];
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: JsonValue | undefined): string {
  const simple =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  return simple ? printable(String(value)) : '';
}

function printable(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}
