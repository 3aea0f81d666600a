import { lstat, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { errnoCode } from '../memory/errno-code.js';
import { LocalStoreRefused } from '../memory/local-store-refused.js';
import { checkedLocalDir, ensureLocalDir, storePaths } from '../memory/store-paths.js';

/**
 * pre-commit runs before the commit message exists, so it cannot read an `Aureus-Override:`
 * trailer. With `--defer-to-commit-msg` it lets a blocked commit go on to the commit-msg hook
 * and leaves this note, holding the HEAD it was made on; commit-msg takes the note and refuses
 * the commit unless the message has the trailer. A note from an abandoned commit is cleared by
 * the next pre-commit, and ignored once HEAD has moved.
 *
 * The note lives in `.aureus/local/`, and only while AUREUS may use that folder (checkedLocalDir):
 * where a checkout tracks it or links it away, no note can be left, so a blocked commit is
 * refused at once (markDeferredBlock throws), and a note there is never AUREUS's to take or
 * delete.
 */
const NOTE = 'pre-commit-blocked';

export async function markDeferredBlock(root: string, head: string): Promise<void> {
  await writeFileAtomic(join(await ensureLocalDir(root), NOTE), `${head}\n`);
}

export async function clearDeferredBlock(root: string): Promise<void> {
  const note = await notePath(root);
  if (note !== undefined) await rm(note, { force: true });
}

/** Removes the note and returns the HEAD it was left on, or null when there was none. */
export async function takeDeferredBlock(root: string): Promise<string | null> {
  const note = await notePath(root);
  if (note === undefined) return null;
  let text: string;
  try {
    text = await readFile(note, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  await rm(note, { force: true });
  return text.trim();
}

/**
 * AUREUS's note, or undefined when there is none or it cannot be AUREUS's (the folder is
 * refused). Looked for first: a hook with nothing to clear asks git nothing more.
 */
async function notePath(root: string): Promise<string | undefined> {
  const unchecked = join(storePaths(root).localDir, NOTE);
  if ((await lstat(unchecked).catch(() => undefined)) === undefined) return undefined;
  try {
    return join(await checkedLocalDir(root), NOTE);
  } catch (error) {
    if (error instanceof LocalStoreRefused) return undefined;
    throw error;
  }
}
