import type { LedgerLine } from '../../learn/learn-input.js';
import { AureusError } from '../../model/errors.js';
import type { CommandContext } from './command-context.js';
import { readLedger } from './ledger-command.js';

/**
 * Every ledger named, read as `ledger query` reads it, and what does not verify in each: a
 * proposal or registry drawn from a damaged or tampered ledger is said to be so. The local one
 * always; the shared one with --shared, the App's with --file.
 */
export async function readLedgers(
  context: CommandContext,
  answer: string,
): Promise<{ lines: LedgerLine[]; damaged: string[] }> {
  const { options } = context;
  if (options.remote !== undefined && options.shared !== true)
    throw new AureusError(
      '--remote goes with --shared.',
      'add --shared to read the shared ledger.',
    );
  const local = { shared: undefined, file: undefined, remote: undefined };
  const chosen = [
    { ...options, ...local },
    ...(options.shared === true ? [{ ...options, file: undefined }] : []),
    ...(options.files ?? (options.file === undefined ? [] : [options.file])).map((file) => ({
      ...options,
      file,
      shared: undefined,
      remote: undefined,
    })),
  ];
  const lines: LedgerLine[] = [];
  const damaged: string[] = [];
  for (const chosenOptions of chosen) {
    const { shown, contents, anchor } = await readLedger({ ...context, options: chosenOptions });
    for (const entry of contents.entries) lines.push({ ledger: shown, entry });
    if (!contents.intact || anchor.problem !== null)
      damaged.push(
        `${shown} does not verify (${contents.problems.length} damaged line(s)${anchor.problem === null ? '' : `; ${anchor.problem}`}): ${answer} leaves its damaged lines out and cannot vouch for the rest (aureus ledger verify says more).`,
      );
  }
  return { lines, damaged };
}
