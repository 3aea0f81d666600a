import type { FileVersion } from '../model/change.js';
import { AureusError } from '../model/errors.js';
import { checkedLimit } from './blob-limit.js';
import { describeBlob, SUBMODULE_MODE, submoduleVersion } from './blob-version.js';
import { readObjects } from './cat-file-batch.js';
import { openRepository } from './repository.js';

export interface BlobRequest {
  readonly path: string;
  readonly blobSha: string;
  readonly mode: string;
}

/**
 * Each requested blob's size in bytes, in request order, as soon as git has told (before the
 * contents stream); undefined for what is not read: a submodule, a blob the repository lacks,
 * one over the read limit.
 */
export type BlobSizes = (bytes: readonly (number | undefined)[]) => void;

/**
 * Reads many blobs through one `git cat-file --batch` process and returns one FileVersion per
 * request, in order: kind, size, and text for text blobs. Submodules (mode 160000) are commit
 * pointers and are not read. A blob the repository does not have is an AureusError (exit 2):
 * facts for a file that could not be read must not be cached as facts.
 */
export async function readBlobs(
  repoDir: string,
  blobs: ReadonlyArray<BlobRequest>,
  options: { maxBlobBytes?: number; onSizes?: BlobSizes } = {},
): Promise<FileVersion[]> {
  const maxBytes = checkedLimit(options.maxBlobBytes);
  for (const blob of blobs) {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(blob.blobSha)) {
      throw new AureusError(
        `${JSON.stringify(blob.blobSha)} (for ${blob.path}) is not a full git object id.`,
        'pass the 40- or 64-character id that git ls-files -s or git ls-tree prints.',
      );
    }
  }
  if (blobs.length === 0) return [];
  const repository = await openRepository(repoDir);
  const stored = blobs.filter((blob) => blob.mode !== SUBMODULE_MODE);
  const { onSizes } = options;
  const objects = await readObjects(
    repository.cwd,
    stored.map((blob) => blob.blobSha),
    () => maxBytes,
    onSizes &&
      ((headers) =>
        onSizes(
          blobs.map((blob) => {
            const header = headers.get(blob.blobSha);
            const read = blob.mode !== SUBMODULE_MODE && header?.found && header.size <= maxBytes;
            return read ? header.size : undefined;
          }),
        )),
  );
  return blobs.map((blob) => {
    if (blob.mode === SUBMODULE_MODE) return submoduleVersion(blob.path, blob.blobSha);
    const object = objects.get(blob.blobSha);
    if (!object?.found || object.type !== 'blob') {
      throw new AureusError(
        `git has no blob ${blob.blobSha} for ${blob.path}.`,
        'fetch the commit that holds it, or run "git fsck" if the repository may be damaged.',
      );
    }
    return describeBlob({
      path: blob.path,
      blobSha: blob.blobSha,
      mode: blob.mode,
      size: object.size,
      ...(object.bytes ? { bytes: object.bytes } : {}),
    });
  });
}
