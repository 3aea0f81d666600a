import type { CommitDiff } from '../git/commit-history.js';
import type { JournalEntry } from '../memory/journal-format.js';
import type { Policy } from '../model/policy.js';

/** One verified line of a ledger, with the name the output gives its ledger. */
export interface LedgerLine {
  /** How the ledger is shown: `.aureus/local/ledger.jsonl`, `aureus-ledger`, the App's file. */
  readonly ledger: string;
  readonly entry: JournalEntry;
}

/** Everything `aureus learn` learns from: data in, a proposal out. */
export interface LearnInput {
  /** The effective policy the proposal changes. */
  readonly policy: Policy;
  readonly lines: readonly LedgerLine[];
  /** The first-parent history of HEAD, oldest first. */
  readonly commits: readonly CommitDiff[];
  /** The history was longer than what was read: older commits are left out. */
  readonly historyCut: boolean;
  /** Now, in milliseconds: the window ends here. */
  readonly now: number;
  /** Days of ledger entries to learn from (`--since`, else learning.window_days). */
  readonly windowDays: number;
}

export const DAY_MS = 86_400_000;
