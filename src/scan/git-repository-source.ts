import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import {
  type BlobSizes,
  DEFAULT_MAX_BLOB_BYTES,
  listTrackedFiles,
  readBlobs,
} from '../git/index.js';
import { createBlobTextCache } from '../memory/blob-text-cache.js';
import { localCacheDir } from '../memory/cache-dir.js';
import { cachedBlobTexts } from './cached-blob-texts.js';
import type { RepositorySource, SourceBlob } from './repository-source.js';
import { snapshotResolutionFiles } from './snapshot-resolution-files.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/**
 * The repository at `root` read through git: `git ls-tree` for a commit's files, one
 * `git cat-file --batch` for blobs, the caches in the user's cache folder (cache-dir.ts).
 * Imports resolve over the snapshot's own files (whatever is checked out) with installed
 * packages from the disk, so node_modules and workspace links resolve as in the clone.
 */
export function gitRepositorySource(
  root: string,
  options: {
    /**
     * false: commits listed without their blobs' sizes (listTrackedFiles), for readers of a
     * file or two (the policy, the baseline) in a check whose base listing has none either:
     * the process then lists the base once, and git opens none of its blobs to do it.
     */
    readonly listSizes?: boolean;
  } = {},
): RepositorySource {
  const sizes = options.listSizes !== false;
  const readStored = async (
    files: readonly SnapshotFile[],
    onSizes?: BlobSizes,
  ): Promise<SourceBlob[]> =>
    (await readBlobs(root, files, onSizes === undefined ? {} : { onSizes })).map((version) => ({
      version,
    }));
  const readSnapshotBlobs = (files: readonly SnapshotFile[], onSizes?: BlobSizes) =>
    readEditedFirst(files, readStored, onSizes);
  const cacheDir = localCacheDir(root);
  return {
    cacheDir,
    resolutionScope: cloneScope(root),
    listFiles: (commit) => listTrackedFiles(root, commit, { sizes }),
    readBlobs: readSnapshotBlobs,
    resolutionFiles: async (snapshot) => {
      const rootDir = root.replaceAll('\\', '/').replace(/\/+$/, '') || '/';
      // The configs' texts from the text cache, by blob id: a warm run (a hook) reads them for
      // the emit settings of both sides, and two `git cat-file` processes per side cost more than
      // the whole check of a few staged files otherwise does.
      const texts = createBlobTextCache(cacheDir);
      const own = await snapshotResolutionFiles(
        snapshot,
        cachedBlobTexts(texts, (files) => readSnapshotBlobs(files), DEFAULT_MAX_BLOB_BYTES),
        rootDir,
      );
      // A config the snapshot holds no text for (a symbolic link, a FIFO in its place) is not
      // read from the disk either (a link could lead to /dev/zero or out of the repository):
      // it is missing here as over the API, and the verdict says so.
      return { ...own, onDisk: true };
    },
  };
}

/**
 * This clone on this disk: its real path and the folder's identity (device and inode), so that
 * a clone made again where another was, with other packages installed, starts afresh.
 */
function cloneScope(root: string): string {
  const path = realpathSync.native(root);
  const { dev, ino } = statSync(path);
  const hash = createHash('sha256').update(`${path}\u0000${dev}\u0000${ino}`);
  return `clone-${hash.digest('hex').slice(0, 32)}`;
}

/**
 * Blobs of a snapshot, the working tree's edits answered from what the snapshot already holds
 * (their text, or what they are instead): an edited file's blob id is computed, not written, so
 * git does not have it.
 */
async function readEditedFirst(
  files: readonly SnapshotFile[],
  read: (files: readonly SnapshotFile[], onSizes?: BlobSizes) => Promise<SourceBlob[]>,
  onSizes: BlobSizes | undefined,
): Promise<SourceBlob[]> {
  const edited = files.map(editedBlob);
  const unread = files.filter((_file, index) => edited[index] === undefined);
  // Sizes in the order of `files`, as the caller asked: none for the edits, git has no blob.
  const spread: BlobSizes | undefined =
    onSizes &&
    ((sizes) => {
      let next = 0;
      onSizes(edited.map((blob) => (blob === undefined ? sizes[next++] : undefined)));
    });
  const stored = await read(unread, spread);
  let next = 0;
  return files.map((file, index): SourceBlob => {
    const known = edited[index];
    if (known !== undefined) return known;
    const blob = stored[next++];
    if (blob === undefined) throw new Error(`no blob was read for ${file.path}`);
    return blob;
  });
}

function editedBlob(file: SnapshotFile): SourceBlob | undefined {
  const { text } = file;
  if (text === undefined) return file.unstored;
  const { path, blobSha, mode } = file;
  const size = Buffer.byteLength(text);
  return { version: { path, blobSha, mode, kind: 'text', size, text, validUtf8: true } };
}
