import { hasEscapedBytes, pathFromBytes } from '../model/path-bytes.js';

/**
 * A path as git stores it: bytes. `text` is what the Change carries, every byte kept
 * (pathFromBytes: a byte that is not UTF-8 is a lone surrogate, so two names never share a
 * text); `bytes` is what the file system and git are given back.
 */
export interface GitPath {
  readonly text: string;
  readonly bytes: Buffer;
  readonly validUtf8: boolean;
}

/** The one decoding of a path git printed (`-z`, byte for byte), for every git reader. */
export function toGitPath(bytes: Buffer): GitPath {
  // Copy: the bytes may be a view into a large git output buffer that should not stay alive.
  const own = Buffer.from(bytes);
  const text = pathFromBytes(own);
  return { text, bytes: own, validUtf8: !hasEscapedBytes(text) };
}
