import { relative } from 'node:path';
import { localLedgerAnchorIfAny } from '../../git/ledger-anchor.js';
import type { AnchorStore } from '../../memory/journal.js';
import { anchorBeside } from '../../memory/journal-anchor-file.js';
import { compactJournalFile, restoreJournal } from '../../memory/journal-retention.js';
import { loadPolicy } from '../../memory/policy-file.js';
import { checkedLocalDir, storePaths } from '../../memory/store-paths.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';

interface LedgerFile {
  path: string;
  shown: string;
  anchor: AnchorStore | undefined;
  /** This machine's ledger (its run history), not a file named with --file. */
  local: boolean;
}

/** The ledger `--file` names (the App's), else this machine's, with where its anchor is kept. */
async function ledgerFile(context: CommandContext): Promise<LedgerFile> {
  const { io, root, options } = context;
  if (options.file !== undefined) {
    const path = options.file;
    return {
      path,
      shown: relative(io.cwd, path) || path,
      anchor: anchorBeside(path),
      local: false,
    };
  }
  // This machine's ledger is rewritten only where the checkout does not decide what is in it.
  await checkedLocalDir(root);
  const path = storePaths(root).ledger;
  const store = await localLedgerAnchorIfAny(root);
  if (store === null)
    throw new AureusError(
      `${root} is not in a git repository, so it has no local ledger (.aureus/local/ledger.jsonl).`,
      'run in the repository whose ledger you mean or name it with --repo DIR; a ledger file elsewhere, with --file FILE.',
    );
  return { path, shown: relative(io.cwd, path) || path, anchor: store, local: true };
}

/**
 * `aureus ledger compact`: replaces the entries older than the retention by one summary line
 * (memory.history_retention_days for this machine's ledger, memory.ledger_retention_days for a
 * file named with --file), after a backup beside the ledger. A ledger that does not verify is
 * refused: a summary would bury the damage.
 */
export async function compactLedgerCommand(context: CommandContext): Promise<number> {
  const { io, root, options, format } = context;
  const ledger = await ledgerFile(context);
  const { policy } = await loadPolicy({ root, file: options.policy, cwd: io.cwd });
  const setting = ledger.local ? 'history_retention_days' : 'ledger_retention_days';
  const days = policy.memory[setting];
  const result =
    days === 0
      ? ({ status: 'nothing' } as const)
      : await compactJournalFile(ledger.path, { days, now: new Date(), anchor: ledger.anchor });
  if (result.status === 'damaged')
    throw new AureusError(
      `${ledger.shown} does not verify (${result.problem}); compacting it would hide the damage under a summary.`,
      'restore it first (aureus ledger restore), then compact.',
    );
  if (format === 'json') {
    const answer =
      result.status === 'compacted'
        ? {
            file: ledger.shown,
            retentionDays: days,
            compacted: true,
            backup: result.backup,
            summary: result.compacted.summary,
          }
        : { file: ledger.shown, retentionDays: days, compacted: false };
    io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
    return ExitCode.pass;
  }
  if (days === 0) {
    io.stdout(`${ledger.shown}: memory.${setting} is 0, which keeps every entry.\n`);
    return ExitCode.pass;
  }
  if (result.status === 'nothing') {
    io.stdout(`${ledger.shown}: no entry is older than ${days} days (memory.${setting}).\n`);
    return ExitCode.pass;
  }
  const { compacted, backup } = result;
  io.stdout(
    `${ledger.shown}: ${compacted.removed} line(s) older than ${days} days replaced by one summary line (${compacted.entries} entries summarized in all); the ledger still verifies. Backup: ${relative(io.cwd, backup) || backup}\n`,
  );
  return ExitCode.pass;
}

/**
 * `aureus ledger restore [--from BACKUP]`: the ledger from a backup that verifies, with the
 * lines appended after it that still verify; says which were lost. Exit 1 when any was.
 */
export async function restoreLedgerCommand(context: CommandContext): Promise<number> {
  const { io, options, format } = context;
  const ledger = await ledgerFile(context);
  const restored = await restoreJournal(ledger.path, options.from, ledger.anchor);
  const backup = relative(io.cwd, restored.backup) || restored.backup;
  const verdict =
    restored.lost.length > 0 || !restored.tailFound || restored.beyondRestored > 0
      ? ExitCode.rejected
      : ExitCode.pass;
  if (format === 'json') {
    io.stdout(`${JSON.stringify({ file: ledger.shown, ...restored, backup }, null, 2)}\n`);
    return verdict;
  }
  const lines = [
    `${ledger.shown}: restored from ${backup}, with ${restored.kept} line(s) appended after it kept as they were.`,
  ];
  if (!restored.tailFound)
    lines.push(
      "The damaged ledger no longer held the backup's last line: whatever was appended after the backup is lost.",
    );
  if (restored.beyondRestored > 0)
    lines.push(
      `The anchor records ${restored.beyondRestored} line(s) past what the restored ledger holds: they are lost, and the anchor is kept as the evidence, so \`aureus ledger verify\` goes on saying so.`,
    );
  for (const lost of restored.lost)
    lines.push(
      `lost: line ${lost.lineNumber} of the damaged ledger${lost.at === null ? '' : ` (${lost.at})`}: ${lost.why}`,
    );
  io.stdout(`${lines.join('\n')}\n`);
  return verdict;
}
