import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { errnoCode } from '../memory/errno-code.js';
import { ensureLocalDir, storePaths } from '../memory/store-paths.js';

/**
 * pre-commit runs before the commit message exists, so it cannot read an `Aureus-Override:`
 * trailer. With `--defer-to-commit-msg` it lets a blocked commit go on to the commit-msg hook
 * and leaves this note, holding the HEAD it was made on; commit-msg takes the note and refuses
 * the commit unless the message has the trailer. A note from an abandoned commit is cleared by
 * the next pre-commit, and ignored once HEAD has moved.
 */
const NOTE = 'pre-commit-blocked';

function notePath(root: string): string {
  return join(storePaths(root).localDir, NOTE);
}

export async function markDeferredBlock(root: string, head: string): Promise<void> {
  await ensureLocalDir(root);
  await writeFileAtomic(notePath(root), `${head}\n`);
}

export async function clearDeferredBlock(root: string): Promise<void> {
  await rm(notePath(root), { force: true });
}

/** Removes the note and returns the HEAD it was left on, or null when there was none. */
export async function takeDeferredBlock(root: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(notePath(root), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  await clearDeferredBlock(root);
  return text.trim();
}
