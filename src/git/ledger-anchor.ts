import { parseAnchor } from '../memory/journal-anchor-file.js';
import type { JournalAnchor } from '../memory/journal-format.js';
import { runGit } from './git-runner.js';

/**
 * Where the local ledger's anchor lives: a per-worktree ref (each worktree has its own
 * `.aureus/local/ledger.jsonl`) naming a blob `{"lines":…,"hash":…}`. It is kept in git, not in
 * `.aureus/local/`: whoever edits or cuts that folder's files (by hand, a clean script, an
 * editor) does not rewrite the anchor with them, and no checkout, clone or fetch sets a ref of
 * this name, so a repository's content cannot forge it.
 */
export const LEDGER_ANCHOR_REF = 'refs/worktree/aureus/ledger-anchor';

/** Records the ledger's length and last hash: one blob, one ref update. */
export async function writeLedgerAnchor(root: string, anchor: JournalAnchor): Promise<void> {
  const blob = await runGit(root, ['hash-object', '-w', '--stdin'], {
    input: `${JSON.stringify(anchor)}\n`,
  });
  const id = blob.stdout.toString('utf8').trim();
  await runGit(root, ['update-ref', '-m', 'aureus: local ledger appended', LEDGER_ANCHOR_REF, id]);
}

/** The anchor, or null when none was ever written (or it is not an anchor). */
export async function readLedgerAnchor(root: string): Promise<JournalAnchor | null> {
  const blob = await runGit(root, ['cat-file', 'blob', LEDGER_ANCHOR_REF], {
    okExitCodes: [0, 1, 128],
  });
  if (blob.exitCode !== 0) return null;
  return parseAnchor(blob.stdout.toString('utf8'));
}
