import { join } from 'node:path';
import { isRecord, type JsonObject } from '../model/json.js';
import { appendToJournal, readJournal } from './journal.js';
import { anchorBeside } from './journal-anchor-file.js';
import type { JournalAnchor, JournalContents } from './journal-format.js';
import { compactionWhenDue } from './journal-retention.js';

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
 * Returns the anchor of the keyed line (its line number and hash): what the ledger must still
 * hold for this record, which the App also writes into the check run.
 */
export async function appendToAppLedger(
  dataDir: string,
  repositoryId: number,
  key: string,
  record: JsonObject,
  retentionDays = 0,
): Promise<{ status: 'written' | 'present'; anchor: JournalAnchor }> {
  const path = appLedgerPath(dataDir, repositoryId);
  const present = keyedLine(await readJournal(path), key);
  if (present !== undefined) return { status: 'present', anchor: present };
  const store = anchorBeside(path);
  const line = await appendToJournal(
    path,
    { key, ...record },
    { anchor: store, whileLocked: compactionWhenDue(path, retentionDays, store) },
  );
  const anchor = await store.read();
  if (anchor?.hash === line.hash) return { status: 'written', anchor };
  // The ledger had lost lines before this append, so the anchor beside it was kept (and
  // verify keeps failing): the new line's own place is read from the file.
  const written = keyedLine(await readJournal(path), key);
  if (written === undefined) throw new Error(`the line appended to ${path} is not in it`);
  return { status: 'written', anchor: written };
}

function keyedLine(contents: JournalContents, key: string): JournalAnchor | undefined {
  const entry = contents.entries.find((candidate) => candidate.record.key === key);
  // Anchors count lines as written: a compaction summary stands for the lines it replaced.
  return entry === undefined
    ? undefined
    : { lines: entry.lineNumber + contents.lineOffset, hash: entry.hash };
}

/**
 * The cost of the repository's earlier changes, oldest first, from the App's own ledger (lines
 * whose checksum verifies): the history the pull request comment charts. A pull request pushed
 * to again is one change, at its latest check; the pull request being judged (`pullRequest`)
 * and a line of the same `key` (this event and head, redelivered) are left out: they are this
 * change.
 */
export async function appLedgerCostHistory(
  dataDir: string,
  repositoryId: number,
  key: string,
  pullRequest: number | null,
): Promise<number[]> {
  const { entries } = await readJournal(appLedgerPath(dataDir, repositoryId));
  const changes = new Map<string, number>();
  entries.forEach(({ record }, index) => {
    const { cost } = record;
    if (record.kind !== 'check' || record.key === key || !isRecord(cost)) return;
    if (typeof cost.total !== 'number') return;
    const pull = typeof record.pullRequest === 'number' ? record.pullRequest : null;
    if (pull !== null && pull === pullRequest) return;
    const change = pull === null ? `line:${index}` : `pull:${pull}`;
    // Deleted first, so a pull request's place is that of its latest check.
    changes.delete(change);
    changes.set(change, cost.total);
  });
  return [...changes.values()];
}
