import type { JournalEntry } from '../../memory/journal-format.js';
import { ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';
import { readLedger } from './ledger-command.js';
import { type LedgerFilter, ledgerFilter, matchEntry } from './ledger-filter.js';
import { ledgerTable } from './ledger-table.js';

/**
 * `aureus ledger query`: the entries that match every filter given, as `ledger show`'s table or
 * as JSON, then their count. A ledger that does not verify is said before the answer and exits
 * 1, as `ledger verify` does: an audit over a damaged or tampered ledger never reads as clean.
 */
export async function queryLedgerCommand(context: CommandContext): Promise<number> {
  const { io, format } = context;
  // Checked before anything is read or fetched: a typo is refused, never answered "none".
  const filter = ledgerFilter(context.options);
  const { shown, contents, anchor } = await readLedger(context);
  const verified = contents.intact && anchor.problem === null;
  const { entries } = contents;
  const judged = entries.map((entry) => ({ entry, match: matchEntry(filter, entry) }));
  const matches = judged.flatMap(({ entry, match }) => (match === 'yes' ? [entry] : []));
  const unsure = judged.flatMap(({ entry, match }) => (match === 'unsure' ? [entry] : []));
  const exitCode = verified ? ExitCode.pass : ExitCode.rejected;
  if (format === 'json') {
    const result = {
      file: shown,
      verified,
      problems: contents.problems,
      anchor: anchor.problem,
      entries: entries.length,
      matched: matches.length,
      matches: matches.map(({ lineNumber, at, hash, record }) => ({
        lineNumber,
        at,
        hash,
        record,
      })),
      // Lines whose record kept only its first reasons, none naming --rule: neither in nor out.
      reasonsCut: unsure.map((entry) => entry.lineNumber),
    };
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return exitCode;
  }
  const out: string[] = [];
  if (!verified) {
    for (const problem of contents.problems)
      out.push(`${shown}:${problem.lineNumber}: ${problem.kind}: ${problem.message}\n`);
    if (anchor.problem !== null) out.push(`${shown}: ${anchor.problem}.\n`);
    out.push(
      `${shown} does not verify: the answer below leaves out its damaged lines and cannot vouch for the rest (aureus ledger verify says more).\n\n`,
    );
  }
  out.push(
    matches.length === 0 ? nothingMatched(shown, entries, filter) : ledgerTable(matches, entries),
  );
  if (unsure.length > 0)
    out.push(
      `\n${unsure.length} more may match: ${unsure.map((entry) => `#${entry.lineNumber}`).join(', ')} kept only the first of their reasons, and rule ${filter.rule} is not among those.\n`,
    );
  out.push(
    `\n${matches.length} of ${entries.length} entries match${verified ? '' : ', in a ledger that does not verify'}.\n`,
  );
  io.stdout(out.join(''));
  return exitCode;
}

/** Why nothing matched, when the ledger says: no entries at all, or none of the kind asked for. */
function nothingMatched(
  shown: string,
  entries: readonly JournalEntry[],
  filter: LedgerFilter,
): string {
  if (entries.length === 0) return `${shown}: no entries.\n`;
  const kinds = new Set(
    entries.flatMap(({ record }) => (typeof record.kind === 'string' ? [record.kind] : [])),
  );
  if (filter.kind !== undefined && !kinds.has(filter.kind))
    return `no line of ${shown} has kind ${JSON.stringify(filter.kind)} (its kinds: ${[...kinds].sort().join(', ') || 'none'}).\n`;
  return `no entry of ${shown} matches.\n`;
}
