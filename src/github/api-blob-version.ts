import {
  describeBlob,
  SUBMODULE_MODE,
  SYMLINK_MODE,
  submoduleVersion,
} from '../git/blob-version.js';
import type { FileVersion } from '../model/change.js';
import type { BlobRead } from './api-blobs.js';
import type { ApiTreeEntry } from './api-trees.js';

/** What a tree says of a blob: enough to tell whether to download it and how to classify it. */
export type ApiBlobEntry = Pick<ApiTreeEntry, 'mode' | 'sha' | 'size'>;

/** A version and, when it is a placeholder, why (the change or analysis is then incomplete). */
export interface ApiBlobVersion {
  readonly version: FileVersion;
  readonly problem?: string;
}

/** The blob to download for an entry, if any: symlinks, submodules and big blobs never are. */
export function blobToDownload(entry: ApiBlobEntry, maxBytes: number): string | undefined {
  if (entry.mode === SYMLINK_MODE || entry.mode === SUBMODULE_MODE) return undefined;
  return entry.size !== undefined && entry.size > maxBytes ? undefined : entry.sha;
}

/** Classified exactly as git's adapter does, by the same pure `describeBlob`. */
export function apiBlobVersion(
  path: string,
  entry: ApiBlobEntry,
  blobs: ReadonlyMap<string, BlobRead>,
  maxBytes: number,
): ApiBlobVersion {
  const { mode, sha } = entry;
  if (mode === SUBMODULE_MODE) return { version: submoduleVersion(path, sha) };
  const size = entry.size ?? 0;
  if (mode === SYMLINK_MODE || size > maxBytes) {
    return { version: describeBlob({ path, blobSha: sha, mode, size }) };
  }
  const read = blobs.get(sha);
  if (read === undefined || !read.ok) {
    const problem = read?.problem ?? `blob ${sha} was not read`;
    return { version: unreadableVersion(path, sha, mode), problem };
  }
  return {
    version: describeBlob({ path, blobSha: sha, mode, size: read.bytes.length, bytes: read.bytes }),
  };
}

export function unreadableVersion(path: string, blobSha: string, mode: string): FileVersion {
  return { path, blobSha, mode, kind: 'unreadable', size: 0 };
}
