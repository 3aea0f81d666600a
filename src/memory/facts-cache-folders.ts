import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { ANALYZER_VERSION } from '../model/facts.js';
import { privateFolders } from './cache-files.js';
import { errnoCode } from './errno-code.js';
import { ENTRY_LAYOUT } from './facts-cache-format.js';

/**
 * Where cached facts live: `<cache folder>/facts/<VERSION_FOLDER>/`, loose entries in 256 shard
 * folders named after the blob id's first two hex digits (as git does, so no folder grows to
 * hundreds of thousands of names), packs in `packs/`. Entries of another analyzer version or
 * entry layout sit in another folder and are never read. Every folder is checked as
 * privateFolders checks them.
 */
export interface FactsCacheFolders {
  /** The version folder, created and checked. */
  versionDir(): Promise<string>;
  /** The shard folder of a blob id, created and checked. */
  shardDir(blobSha: string): Promise<string>;
  /** The shard folder of a blob id if it exists (checked), for reads: they create nothing. */
  existingShardDir(blobSha: string): Promise<string | undefined>;
  /** The packs folder, created and checked. */
  packsDir(): Promise<string>;
}

/** The folder of this analyzer version and entry layout: `v3-layout2`. */
export const VERSION_FOLDER = `v${ANALYZER_VERSION}-layout${ENTRY_LAYOUT}`;

export function factsCacheFolders(cacheDir: string): FactsCacheFolders {
  const folder = privateFolders(cacheDir);
  const versionDir = () => folder('facts', VERSION_FOLDER);
  // Shards known to exist: reads look for each shard once, not once per entry.
  const existing = new Set<string>();
  const shardDir = (blobSha: string) => {
    existing.add(blobSha.slice(0, 2));
    return folder('facts', VERSION_FOLDER, blobSha.slice(0, 2));
  };
  return {
    versionDir,
    shardDir,
    existingShardDir: async (blobSha) => {
      if (!existing.has(blobSha.slice(0, 2))) {
        const path = join(await versionDir(), blobSha.slice(0, 2));
        const stats = await lstat(path).catch((error: unknown) => {
          if (errnoCode(error) === 'ENOENT') return undefined;
          throw error;
        });
        if (stats === undefined) return undefined;
      }
      return shardDir(blobSha);
    },
    packsDir: () => folder('facts', VERSION_FOLDER, 'packs'),
  };
}
