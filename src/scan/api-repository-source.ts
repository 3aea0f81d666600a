import { checkedLimit } from '../git/blob-limit.js';
import { classifiedAlike, SUBMODULE_MODE, SYMLINK_MODE } from '../git/blob-version.js';
import { type ApiBlobEntry, apiBlobVersion, blobToDownload } from '../github/api-blob-version.js';
import { type BlobRead, readApiBlobs } from '../github/api-blobs.js';
import type { ApiTree, TreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { createBlobTextCache } from '../memory/blob-text-cache.js';
import type { FileVersion } from '../model/change.js';
import { cachedBlobTexts } from './cached-blob-texts.js';
import type { RepositorySource, SourceBlob } from './repository-source.js';
import { snapshotResolutionFiles } from './snapshot-resolution-files.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

export interface ApiSourceOptions {
  /** The App's cache folder (appCacheFolder), never a repository's; undefined: no caches. */
  readonly cacheDir: string | undefined;
  /** Blobs above this many bytes are `too-large` and never downloaded; 1 MiB by default. */
  readonly maxBlobBytes?: number | undefined;
  /** Share the check's memoized reader: the change was read from the same trees. */
  readonly readTree: TreeReader;
  /** Versions already downloaded (the change's sides): their blobs are not asked for again. */
  readonly known?: readonly FileVersion[];
}

/**
 * A repository read over the GitHub REST API with no checkout: a commit's files from its
 * recursive tree, blobs downloaded (and hash-checked) only when asked, which the analysis does
 * only for facts-cache misses, each blob at most once per check, and imports resolved over a
 * host built from the snapshot (its tsconfig/package.json texts kept in the store by blob id, as
 * they have no facts). Blobs GitHub will not give (404, 409, …) are `unreadable` with the
 * reason; other API errors are thrown.
 */
export function apiRepositorySource(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  options: ApiSourceOptions,
): RepositorySource {
  const maxBytes = checkedLimit(options.maxBlobBytes);
  const known = new Map<string, FileVersion>();
  for (const version of options.known ?? []) {
    // Only versions classified from their bytes: the same bytes give the same version (under a
    // path classified alike).
    if (version.kind === 'text' || version.kind === 'binary') known.set(version.blobSha, version);
  }
  const downloads = new Map<string, Promise<BlobRead>>();
  const download = async (shas: readonly string[]): Promise<Map<string, BlobRead>> => {
    const fresh = [...new Set(shas)].filter((sha) => !downloads.has(sha));
    if (fresh.length > 0) {
      const batch = readApiBlobs(client, repository, fresh);
      for (const sha of fresh) {
        downloads.set(
          sha,
          batch.then((reads) => reads.get(sha) ?? notRead(sha)),
        );
      }
    }
    const reads = await Promise.all(
      shas.map(async (sha) => [sha, (await downloads.get(sha)) ?? notRead(sha)] as const),
    );
    return new Map(reads);
  };
  const reuse = (file: SnapshotFile): FileVersion | undefined => {
    if (file.mode === SYMLINK_MODE || file.mode === SUBMODULE_MODE) return undefined;
    const version = known.get(file.blobSha);
    if (version === undefined || !classifiedAlike(version.path, file.path)) return undefined;
    return { ...version, path: file.path, mode: file.mode };
  };

  const readBlobs = async (files: readonly SnapshotFile[]): Promise<SourceBlob[]> => {
    const entries = files.map((file) => ({ file, entry: entryOf(file) }));
    const reads = await download(
      entries.flatMap(({ file, entry }) => {
        const sha = reuse(file) === undefined ? blobToDownload(entry, maxBytes) : undefined;
        return sha === undefined ? [] : [sha];
      }),
    );
    return entries.map(({ file, entry }) => {
      const version = reuse(file);
      return version === undefined
        ? apiBlobVersion(file.path, entry, reads, maxBytes)
        : { version };
    });
  };

  return {
    cacheDir: options.cacheDir,
    // Nothing but the snapshot decides an answer here (no disk), so every repository shares.
    resolutionScope: 'api',
    listFiles: async (commit) => filesOf(await options.readTree(commit)),
    readBlobs,
    resolutionFiles: (snapshot) =>
      snapshotResolutionFiles(
        snapshot,
        cachedBlobTexts(createBlobTextCache(options.cacheDir), readBlobs, maxBytes),
      ),
  };
}

function entryOf(file: SnapshotFile): ApiBlobEntry {
  return {
    mode: file.mode,
    sha: file.blobSha,
    ...(file.size === undefined ? {} : { size: file.size }),
  };
}

/** As `git ls-tree -r -l` lists them: blobs and submodules, sorted by path in code-unit order. */
function filesOf(tree: ApiTree): SnapshotFile[] {
  const files = [...tree.entries].map(([path, entry]): SnapshotFile => {
    const size = entry.size === undefined ? {} : { size: entry.size };
    return { path, blobSha: entry.sha, mode: entry.mode, ...size };
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function notRead(sha: string): BlobRead {
  return { ok: false, problem: `blob ${sha} was not read` };
}
