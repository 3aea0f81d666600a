import { SUBMODULE_MODE, SYMLINK_MODE } from '../git/blob-version.js';
import { unreadableVersion } from '../github/api-blob-version.js';
import type { BlobTextCache } from '../memory/blob-text-cache.js';
import type { FileVersion } from '../model/change.js';
import type { RepositorySource, SourceBlob } from './repository-source.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/**
 * Reads blobs from the text cache where it has them, else from `readBlobs` (then cached). For
 * the resolution inputs read over the API: they have no facts to cache, and every check whose
 * base or head has paths no earlier check resolved (any pull request that adds a file) needs
 * them again — a monorepo's package.json files are many requests.
 */
export function cachedBlobTexts(
  cache: BlobTextCache,
  readBlobs: RepositorySource['readBlobs'],
  maxBytes: number,
): RepositorySource['readBlobs'] {
  return async (files) => {
    const cached = await Promise.all(files.map((file) => cachedVersion(cache, file, maxBytes)));
    const read = await readBlobs(files.filter((_file, index) => cached[index] === undefined));
    // Only exact texts: a lossy decoding would not hash back to its id. Nor source that git
    // calls binary: under another path the same bytes are binary (describeBlob).
    for (const { version } of read) {
      const exact = version.validUtf8 === true && version.binaryToGit === undefined;
      if (version.text !== undefined && exact) await cache.put(version.blobSha, version.text);
    }
    let next = 0;
    return files.map((file, index): SourceBlob => {
      const version = cached[index];
      if (version !== undefined) return { version };
      const blob = read[next];
      next += 1;
      return (
        blob ?? {
          version: unreadableVersion(file.path, file.blobSha, file.mode),
          problem: 'it was not read',
        }
      );
    });
  };
}

/** The version `describeBlob` gives a blob whose text is cached: its bytes were text before. */
async function cachedVersion(
  cache: BlobTextCache,
  file: SnapshotFile,
  maxBytes: number,
): Promise<FileVersion | undefined> {
  if (file.mode === SYMLINK_MODE || file.mode === SUBMODULE_MODE) return undefined;
  const text = await cache.get(file.blobSha);
  if (text === undefined) return undefined;
  const size = Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) return undefined;
  const { path, blobSha, mode } = file;
  return { path, blobSha, mode, size, kind: 'text', text, validUtf8: true };
}
