import { join } from 'node:path';
import type { JsonObject } from '../model/json.js';
import { appendToJournal, readJournal } from './journal.js';
import { anchorBeside } from './journal-anchor-file.js';

/**
 * The App's ledger: one hash-chained, checksummed journal per repository under the App's data
 * folder, named by the repository's numeric id (names change hands; ids do not). The App has
 * no `contents: write`, so it cannot write the `aureus-ledger` branch the Action writes.
 */
export function appLedgerPath(dataDir: string, repositoryId: number): string {
  return join(dataDir, 'ledger', `${repositoryId}.jsonl`);
}

/**
 * Appends `record` once per `key` (the event and the head commit): a redelivered webhook or a
 * crash between "check concluded" and "ledger written" followed by a replay never adds a
 * second line (THREATS row 2). Jobs of one repository run one at a time in the App, so the
 * read-then-append does not race within a process; the journal's lock keeps lines whole.
 */
export async function appendToAppLedger(
  dataDir: string,
  repositoryId: number,
  key: string,
  record: JsonObject,
): Promise<'written' | 'present'> {
  const path = appLedgerPath(dataDir, repositoryId);
  const { entries } = await readJournal(path);
  if (entries.some((entry) => entry.record.key === key)) return 'present';
  await appendToJournal(path, { key, ...record }, { anchor: anchorBeside(path) });
  return 'written';
}
