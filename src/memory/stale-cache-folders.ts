import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Nothing written for this long: no AUREUS version or clone in use on this machine reads it. */
const STALE_AFTER_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Removes the folders beside `current` under `parent` in which nothing was written for 14 days:
 * facts of other analyzer versions or entry layouts, left behind by an upgrade (each holds as
 * much as the live cache), and the import answers of clones deleted since. The user's cache
 * folder outlives every repository, so without this it would only grow. A folder another
 * AUREUS version or clone still writes to stays. Best effort: what cannot be read or removed is
 * left for a later run.
 */
export async function removeStaleSiblings(parent: string, current: string): Promise<void> {
  const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
  const now = Date.now();
  for (const entry of entries) {
    // A link is never followed nor removed here: the caches refuse links anyway.
    if (entry.name === current || !entry.isDirectory()) continue;
    const folder = join(parent, entry.name);
    const newest = await newestWrite(folder).catch(() => now);
    if (now - newest > STALE_AFTER_MS) await rm(folder, { recursive: true, force: true });
  }
}

/** The latest change to a version folder or a folder in it (shards, packs): writes land there. */
async function newestWrite(folder: string): Promise<number> {
  let newest = (await lstat(folder)).mtimeMs;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory())
      newest = Math.max(newest, (await lstat(join(folder, entry.name))).mtimeMs);
  }
  return newest;
}
