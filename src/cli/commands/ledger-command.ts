import { relative } from 'node:path';
import { localLedgerAnchorIfAny } from '../../git/ledger-anchor.js';
import { readSharedLedgerBranch } from '../../git/shared-ledger-branch.js';
import { readJournalText } from '../../memory/journal.js';
import { anchorBeside, anchorFilePath } from '../../memory/journal-anchor-file.js';
import { anchorProblem, type JournalContents, parseJournal } from '../../memory/journal-format.js';
import { parseLedgerAnchorMarker } from '../../memory/ledger-anchor-marker.js';
import { parseSharedLedgerFiles } from '../../memory/shared-ledger-entries.js';
import { checkedLocalDir, storePaths } from '../../memory/store-paths.js';
import { AureusError, ExitCode } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';
import { ledgerTable } from './ledger-table.js';

/** `aureus ledger show`: a table of the entries, then the overrides; damaged lines are reported and skipped. */
export async function showLedgerCommand(context: CommandContext): Promise<number> {
  const { io, format } = context;
  const { shown, contents } = await readLedger(context);
  if (format === 'json') {
    io.stdout(
      `${JSON.stringify({ file: shown, entries: contents.entries, problems: contents.problems }, null, 2)}\n`,
    );
    return ExitCode.pass;
  }
  io.stdout(
    contents.entries.length === 0 ? `${shown}: no entries.\n` : ledgerTable(contents.entries),
  );
  for (const problem of contents.problems) {
    io.stderr(`${shown}:${problem.lineNumber}: ${problem.message} (skipped)\n`);
  }
  return ExitCode.pass;
}

/** `aureus ledger verify`: exit 0 when every line verifies and the chain is unbroken, else 1. */
export async function verifyLedgerCommand(context: CommandContext): Promise<number> {
  const { io, format } = context;
  const { shown, contents, unchained, anchor } = await readLedger(context);
  const verdict = contents.intact && anchor.problem === null ? ExitCode.pass : ExitCode.rejected;
  if (format === 'json') {
    const result = {
      file: shown,
      intact: contents.intact,
      entries: contents.entries.length,
      unchained,
      problems: contents.problems,
      anchor: anchor.problem,
    };
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return verdict;
  }
  for (const problem of contents.problems) {
    io.stdout(`${shown}:${problem.lineNumber}: ${problem.kind}: ${problem.message}\n`);
  }
  if (anchor.problem !== null) {
    io.stdout(`${shown}: ${anchor.problem}.\n${anchor.hint}\n`);
    return verdict;
  }
  if (anchor.fresh) {
    io.stdout(`${shown}: no ledger yet.\n`);
    return verdict;
  }
  // Entries from before the shared ledger was chained have only their checksum to show.
  const older =
    unchained > 0 ? ` (${unchained} written before entries were chained: checksum only)` : '';
  io.stdout(
    contents.intact
      ? `${shown}: ${contents.entries.length} entries, every checksum and link verified${older}.\n`
      : `${shown}: ${contents.problems.length} damaged or tampered line(s); ${contents.entries.length} entries verified.\n`,
  );
  return verdict;
}

function anchorHint(reset: string): string {
  return `To resolve, restore the ledger from a backup; if its lines were lost for good, say so to whoever relies on it and start afresh with ${reset} (the anchor is kept where editing the ledger does not reach).`;
}

const GIVEN_ANCHOR_HINT =
  'To resolve, restore the ledger file from a backup taken after the check run that carries this anchor, and verify again; if those lines were lost for good, say so to whoever relies on this ledger (the check runs keep their anchors; nothing here resets them).';

export interface AnchorCheck {
  /** What the file lacks against its anchor, or null. */
  problem: string | null;
  /** Neither a file nor an anchor: nothing was ever recorded here. */
  fresh: boolean;
  /** How to resolve a problem: restore the lines, or accept their loss. */
  hint: string;
}

const NO_ANCHOR: AnchorCheck = { problem: null, fresh: false, hint: '' };

/** The ledger the options name (local, --shared or --file), verified, with its anchor checked. */
export async function readLedger(context: CommandContext): Promise<{
  shown: string;
  contents: JournalContents;
  unchained: number;
  anchor: AnchorCheck;
}> {
  const { io, root, options } = context;
  if (options.anchor !== undefined && options.file === undefined)
    throw new AureusError(
      '--anchor checks a ledger file against an anchor a check run of the AUREUS App carries.',
      "name the App's ledger file with --file (AUREUS_DATA_DIR/ledger/<repository id>.jsonl).",
    );
  if (options.shared === true) {
    if (options.file !== undefined)
      throw new AureusError('--shared and --file name two ledgers.', 'choose one.');
    const branch = await readSharedLedgerBranch(root, options.remote ?? 'origin');
    for (const note of branch.notes)
      io.stderr(`aureus: ${note}; reading the copy fetched before.\n`);
    const contents = parseSharedLedgerFiles(branch.files);
    return { shown: branch.ref, contents, unchained: contents.unchained, anchor: NO_ANCHOR };
  }
  if (options.remote !== undefined)
    throw new AureusError(
      '--remote goes with --shared.',
      'add --shared to read the shared ledger.',
    );
  // This machine's ledger is read only where the checkout does not decide what is in it.
  if (options.file === undefined) await checkedLocalDir(root);
  const path = options.file ?? storePaths(root).ledger;
  const shown = relative(io.cwd, path) || path;
  // An anchor from a check run outlives the data folder: it is checked instead of the one
  // beside the file, which a restored backup brings back along with the shortened file.
  const given = options.anchor === undefined ? null : parseLedgerAnchorMarker(options.anchor);
  const text = await readJournalText(path);
  const contents = parseJournal(text ?? '');
  if (given !== null) {
    const problem = anchorProblem(text, given);
    return {
      shown,
      contents,
      unchained: 0,
      anchor: { problem, fresh: false, hint: GIVEN_ANCHOR_HINT },
    };
  }
  // The local ledger's anchor is in the git folder (none outside a repository); a file named
  // with --file (the App's) keeps it beside.
  const store =
    options.file === undefined
      ? await localLedgerAnchorIfAny(root)
      : { ...anchorBeside(path), path: anchorFilePath(path) };
  const anchor = store === null ? null : await store.read();
  // Outside a repository there is no local ledger to read, nor anywhere to keep one: "no ledger
  // yet" would read as a clean result for a folder that can never have one.
  if (store === null && text === null)
    throw new AureusError(
      `${root} is not in a git repository, so it has no local ledger (.aureus/local/ledger.jsonl).`,
      'run in the repository whose ledger you mean or name it with --repo DIR; a ledger file elsewhere, with --file FILE.',
    );
  if (options.file !== undefined && text === null && anchor === null)
    throw new AureusError(
      `${shown} does not exist, and no anchor beside it says it ever did.`,
      'check the path given to --file.',
    );
  const anchorPath = store?.path ?? '';
  const reset = `rm ${relative(io.cwd, anchorPath) || anchorPath}`;
  const checked: AnchorCheck =
    anchor === null
      ? { problem: null, fresh: text === null && options.file === undefined, hint: '' }
      : { problem: anchorProblem(text, anchor), fresh: false, hint: anchorHint(reset) };
  return { shown, contents, unchained: 0, anchor: checked };
}
