import { listTrackedFiles, readBlobs } from '../git/index.js';
import type { RepositorySource } from './repository-source.js';

/**
 * The repository at `root` read through git: `git ls-tree` for a commit's files, one
 * `git cat-file --batch` for blobs, the caches in the repository's own `.aureus/local/`, and
 * imports resolved over the real disk (so installed packages and workspace links resolve).
 */
export function gitRepositorySource(root: string): RepositorySource {
  return {
    storeRoot: root,
    listFiles: (commit) => listTrackedFiles(root, commit),
    readBlobs: async (files) => (await readBlobs(root, files)).map((version) => ({ version })),
    resolutionFiles: async () => {
      // TypeScript loads with the host (~200 ms): only when some import has no cached answer.
      const { diskResolutionHost } = await import('../memory/typescript-host.js');
      return { rootDir: root, host: diskResolutionHost(root), unreadable: [] };
    },
  };
}
