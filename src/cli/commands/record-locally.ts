import { LocalStoreRefused } from '../../memory/local-store-refused.js';
import type { CliIo } from '../cli-io.js';

/**
 * Appends a run to the local ledger with `record`. Where AUREUS may not use `.aureus/local/`
 * (the checkout tracks it or links it away: LocalStoreRefused), the run goes unrecorded and
 * stderr says why; the verdict stands, since where a record is kept changes nothing of it. An
 * override is let through only once recorded: there (`required`) the refusal is the error.
 */
export async function recordLocally(
  io: CliIo,
  record: () => Promise<void>,
  required = false,
): Promise<void> {
  try {
    await record();
  } catch (error) {
    if (required || !(error instanceof LocalStoreRefused)) throw error;
    io.stderr(
      `aureus: this run is not in the local ledger: ${error.message}\nTo resolve, ${error.hint}\n`,
    );
  }
}
