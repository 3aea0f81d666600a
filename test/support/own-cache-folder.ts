import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';
import { makeTempDir } from './temp-dir.js';

/**
 * A cache folder (AUREUS_CACHE_DIR) of the enclosing `describe`'s own, fresh for each test or
 * for all of them: for tests that count what comes from the cache, since the test run's shared
 * folder may hold the facts of another test's identical files. Jest gives each test file its
 * own copy of process.env, which the code under test reads in this process.
 */
export function useOwnCacheFolder(fresh: 'each' | 'all'): { readonly path: () => string } {
  let folder: { path: string; remove(): Promise<void> } | undefined;
  let before: string | undefined;
  const start = async () => {
    folder = await makeTempDir('own-caches');
    before = process.env.AUREUS_CACHE_DIR;
    process.env.AUREUS_CACHE_DIR = folder.path;
  };
  const end = async () => {
    process.env.AUREUS_CACHE_DIR = before;
    await folder?.remove();
  };
  if (fresh === 'each') {
    beforeEach(start);
    afterEach(end);
  } else {
    beforeAll(start);
    afterAll(end);
  }
  return {
    path: () => {
      if (folder === undefined) throw new Error('the cache folder is made before the tests');
      return folder.path;
    },
  };
}
