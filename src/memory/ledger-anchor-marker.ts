import { AureusError } from '../model/errors.js';
import type { JournalAnchor } from './journal-format.js';

/**
 * A ledger's anchor written where the ledger's own folder cannot lose it: the App puts it in
 * each check run it completes, as a hidden HTML comment that is the whole of the check run's
 * `text` (nothing a pull request contains is in that field, so nothing there can forge it).
 * `aureus ledger verify --file F --anchor M` takes the marker back, or its `lines:hash` part.
 */
const MARKER = /^(?:<!--\s*aureus:ledger-anchor\s+)?(\d+):([0-9a-f]{64})(?:\s*-->)?$/;

/** `<!-- aureus:ledger-anchor 12:<hash> -->`: invisible in the check run, readable over the API. */
export function ledgerAnchorMarker(anchor: JournalAnchor): string {
  return `<!-- aureus:ledger-anchor ${anchor.lines}:${anchor.hash} -->`;
}

/** The anchor in a marker or in `lines:hash`; a usage error says the accepted forms. */
export function parseLedgerAnchorMarker(text: string): JournalAnchor {
  const match = MARKER.exec(text.trim());
  const lines = Number(match?.[1]);
  const hash = match?.[2];
  if (hash === undefined || !Number.isSafeInteger(lines) || lines < 1)
    throw new AureusError(
      `--anchor "${text.slice(0, 120)}" is not a ledger anchor.`,
      'pass the marker a check run of the AUREUS App carries in its text (<!-- aureus:ledger-anchor LINES:HASH -->), or LINES:HASH (a line count from 1 and the 64-hex-digit hash of that line).',
    );
  return { lines, hash };
}
