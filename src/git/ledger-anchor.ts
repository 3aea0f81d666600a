import { join } from 'node:path';
import type { AnchorStore } from '../memory/journal.js';
import { anchorAt } from '../memory/journal-anchor-file.js';
import { runGit } from './git-runner.js';
import { openRepository } from './repository.js';

/**
 * Where the local ledger's anchor lives: `aureus/ledger.anchor.json` in this worktree's own git
 * folder (each worktree has its own `.aureus/local/ledger.jsonl`). Not in `.aureus/local/`:
 * whoever edits or cuts that folder's files (by hand, a clean script, an editor) does not
 * rewrite the anchor with them, and no checkout, clone or fetch writes into the git folder, so a
 * repository's content cannot forge it. A file rather than a ref: a ref costs two git processes
 * per append (`hash-object -w`, `update-ref`) on the pre-commit hook's path, a file none (the
 * git folder is known from the repository's opening, which the check has made already); it is
 * replaced atomically, so a crash leaves the old anchor or the new one.
 */
export const LEDGER_ANCHOR_FILE = join('aureus', 'ledger.anchor.json');

/** The local ledger's anchor, in `root`'s git folder, and that file's path. */
export async function localLedgerAnchor(root: string): Promise<AnchorStore & { path: string }> {
  const path = join((await openRepository(root)).gitDir, LEDGER_ANCHOR_FILE);
  return { ...anchorAt(path), path };
}

/**
 * For `ledger verify`: the anchor's store and path, or null where `root` is not in a git
 * repository (a ledger copied elsewhere has no anchor to hold it to, as before anchors).
 */
export async function localLedgerAnchorIfAny(
  root: string,
): Promise<(AnchorStore & { path: string }) | null> {
  const answer = await runGit(root, ['rev-parse', '--absolute-git-dir'], { okExitCodes: [0, 128] });
  if (answer.exitCode !== 0) return null;
  const path = join(answer.stdout.toString('utf8').replace(/\n$/, ''), LEDGER_ANCHOR_FILE);
  return { ...anchorAt(path), path };
}
