import { relative, resolve } from 'node:path';
import { readChartLibrary } from '../../dashboard/chart-library.js';
import {
  dashboardModel,
  type LedgerSource,
  type RuleFixes,
} from '../../dashboard/dashboard-model.js';
import { renderDashboardHtml } from '../../dashboard/render-dashboard-html.js';
import { fixesByRule, patternsRegistry } from '../../learn/patterns-registry.js';
import type { JournalEntry } from '../../memory/journal-format.js';
import { writeOutputFile } from '../../memory/output-file.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';
import { readLedger } from './ledger-command.js';
import { ledgerFilter, matchEntry } from './ledger-filter.js';

/** Where the page goes when --output does not say. */
const DEFAULT_PAGE = 'aureus-report.html';

/**
 * `aureus report`: the dashboard of one or several ledgers (each --ledger FILE, or the ledger
 * chosen as `ledger show` chooses it), as one self-contained HTML page or as its numbers in
 * JSON. A ledger that does not verify is still shown, its damage said on the page and in the
 * exit code (1), as `ledger query` does: a dashboard over a tampered ledger never reads as clean.
 */
export async function reportCommand(context: CommandContext): Promise<number> {
  const { io, options, format } = context;
  const filter = ledgerFilter({ since: options.since });
  const files = options.ledgers ?? [];
  if (files.length > 0 && options.shared === true)
    throw new AureusError(
      '--shared and --ledger name different ledgers.',
      'give the shared ledger alone, or ledger files alone.',
    );
  const contexts =
    files.length === 0
      ? [context]
      : files.map((file) => ({ ...context, options: { ...options, file } }));
  const sources: LedgerSource[] = [];
  for (const each of contexts) {
    const { shown, contents, anchor } = await readLedger(each);
    const entries = contents.entries.filter((entry) => matchEntry(filter, entry) === 'yes');
    sources.push({
      name: shown,
      entries,
      damaged: contents.problems.length + (anchor.problem === null ? 0 : 1),
      verified: contents.intact && anchor.problem === null,
      fixes: fixesIn(shown, entries),
    });
  }
  const model = dashboardModel(sources, options.since ?? null);
  const exitCode = sources.every((source) => source.verified) ? ExitCode.pass : ExitCode.rejected;
  const place = { setting: '--output', repository: context.root };
  if (format === 'json') {
    const json = `${JSON.stringify(model, null, 2)}\n`;
    if (options.output === undefined) io.stdout(json);
    else await writeOutputFile(options.output, json, place);
    return exitCode;
  }
  const output = options.output ?? resolve(io.cwd, DEFAULT_PAGE);
  await writeOutputFile(output, renderDashboardHtml(model, await readChartLibrary()), place);
  io.stdout(`aureus: wrote ${relative(io.cwd, output) || output}.\n`);
  return exitCode;
}

/**
 * The fixes `aureus memory patterns` finds in these entries, every one kept (--since has chosen
 * the entries); the registry's clock is the newest entry, so the page is the ledger's alone.
 */
function fixesIn(ledger: string, entries: readonly JournalEntry[]): RuleFixes[] {
  const newest = Math.max(...entries.map((entry) => Date.parse(entry.at)));
  if (!Number.isFinite(newest)) return [];
  const lines = entries.map((entry) => ({ ledger, entry }));
  return fixesByRule(patternsRegistry(lines, newest, 0));
}
