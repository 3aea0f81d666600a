import type { FileVersion } from '../model/change.js';

export const SYMLINK_MODE = '120000';
export const SUBMODULE_MODE = '160000';

/** git's rule (`buffer_is_binary` in xdiff-interface.c): a NUL in the first 8000 bytes. */
const BINARY_PROBE_BYTES = 8000;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export interface BlobFacts {
  readonly path: string;
  readonly blobSha: string;
  readonly mode: string;
  readonly size: number;
  /** The contents; absent when the blob was over the read limit. */
  readonly bytes?: Buffer;
}

/**
 * What one side of a file is, from its mode and bytes. A symlink's blob is its target path:
 * it is never kept as text, so a link to /etc/passwd shows up as a link and nothing more.
 * `.gitattributes` (`binary`, `-diff`, linguist-*) is ignored on purpose: the change under
 * review could have written it to hide code from pricing.
 */
export function describeBlob(facts: BlobFacts): FileVersion {
  const { path, blobSha, mode, size, bytes } = facts;
  const base = { path, blobSha, mode, size };
  if (mode === SUBMODULE_MODE) return { ...base, kind: 'submodule' };
  if (mode === SYMLINK_MODE) return { ...base, kind: 'symlink' };
  if (bytes === undefined) return { ...base, kind: 'too-large' };
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return { ...base, kind: 'binary' };
  try {
    return { ...base, kind: 'text', text: strictUtf8.decode(bytes), validUtf8: true };
  } catch {
    return { ...base, kind: 'text', text: lossyUtf8.decode(bytes), validUtf8: false };
  }
}

/** A submodule side: the commit it points at, nothing to read. */
export function submoduleVersion(path: string, commitSha: string): FileVersion {
  return { path, blobSha: commitSha, mode: SUBMODULE_MODE, kind: 'submodule', size: 0 };
}
