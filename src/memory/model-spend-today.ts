import { readJournal } from './journal.js';
import { checkedLocalDir, storePaths } from './store-paths.js';

/**
 * Dollars the model calls of this machine's runs cost on `now`'s UTC day, from the `modelSpend`
 * of the ledger's records: what cost_thresholds.max_usd_per_day already holds before a run.
 * Throws LocalStoreRefused where the ledger is not AUREUS's own to read.
 */
export async function modelSpendToday(root: string, now: Date): Promise<number> {
  await checkedLocalDir(root);
  const { entries } = await readJournal(storePaths(root).ledger);
  const day = now.toISOString().slice(0, 10);
  let usd = 0;
  for (const { at, record } of entries) {
    const spend = record.modelSpend;
    if (!at.startsWith(day) || typeof spend !== 'object' || spend === null) continue;
    const spent = 'usd' in spend ? spend.usd : undefined;
    if (typeof spent === 'number' && spent > 0) usd += spent;
  }
  return usd;
}
