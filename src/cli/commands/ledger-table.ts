import type { JournalEntry } from '../../memory/journal-format.js';
import type { JsonObject, JsonValue } from '../../model/json.js';

/**
 * `aureus ledger show` as a reader audits it: a table under headings, one row per entry, then
 * every override on its own line (who, why, which commit) — a let-through is the one thing a
 * reader of the ledger must not miss. Ledger text is data: control characters are shown as `?`.
 */
const HEADINGS = ['#', 'WHEN', 'EVENT', 'COMMIT', 'VERDICT', 'COST', 'OVERRIDE'] as const;

export function ledgerTable(entries: readonly JournalEntry[]): string {
  // A hook's check names its commit through the link post-commit appended after it.
  const became = new Map<string, string>();
  for (const { record } of entries)
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
    isObject(record.override) ? `yes (${text(record.override.by) || '?'})` : '',
  ];
}

function event(record: JsonObject): string {
  const source = text(record.source);
  return source === '' ? text(record.kind) : `${text(record.kind)} (${source})`;
}

/** The commit is the one a hook's check became, else the head it checked. */
function overrideLine(entry: JournalEntry, commit: string): string[] {
  const value = entry.record.override;
  if (!isObject(value)) return [];
  return [
    `#${entry.lineNumber}  ${commit || 'no commit recorded'}  overridden by ${text(value.by) || '?'}: ${text(value.reason) || '?'}`,
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
