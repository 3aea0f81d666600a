import { join } from 'node:path';
import { hashBlob } from '../git/read-worktree-file.js';
import { writeCacheFile } from './atomic-write.js';
import { privateFolders, readCacheFile } from './cache-files.js';

/**
 * UTF-8 texts of blobs by their git id, for files read without a checkout that have no facts to
 * cache (tsconfig.json, package.json): the App reads them again whenever a pull request adds or
 * removes a path. An entry is trusted only if its bytes hash to its id, so a damaged or planted
 * entry is a miss; being content-addressed, one store serves every repository.
 */
export interface BlobTextCache {
  /** The text of the blob, or undefined when it is not cached (or does not verify). */
  get(blobSha: string): Promise<string | undefined>;
  /** Keeps a blob's text; the caller vouches it is valid UTF-8 (it is checked on every read). */
  put(blobSha: string, text: string): Promise<void>;
}

const BLOB_ID = /^([0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The cache under `<cache folder>/texts/`, in folders by the id's first two digits; without a
 * folder (caching off) it holds nothing.
 */
export function createBlobTextCache(cacheDir: string | undefined): BlobTextCache {
  const folder = cacheDir === undefined ? undefined : privateFolders(cacheDir);
  const fileOf = async (blobSha: string): Promise<string | undefined> =>
    folder && join(await folder('texts', blobSha.slice(0, 2)), blobSha);
  return {
    get: async (blobSha) => {
      if (!BLOB_ID.test(blobSha)) return undefined;
      const file = await fileOf(blobSha);
      const found = file === undefined ? undefined : await readCacheFile(file);
      if (found?.kind !== 'text') return undefined;
      const format = blobSha.length === 64 ? 'sha256' : 'sha1';
      return hashBlob(format, Buffer.from(found.text, 'utf8')) === blobSha ? found.text : undefined;
    },
    put: async (blobSha, text) => {
      if (!BLOB_ID.test(blobSha)) return;
      try {
        const file = await fileOf(blobSha);
        if (file !== undefined) await writeCacheFile(file, text);
      } catch {
        // A cache that cannot be written only costs the next check a download.
      }
    },
  };
}
