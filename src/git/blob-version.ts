import { detectLanguage, hasNoExtension } from '../analysis/detect-language.js';
import type { FileVersion } from '../model/change.js';

export const SYMLINK_MODE = '120000';
export const SUBMODULE_MODE = '160000';

/** git's rule (`buffer_is_binary` in xdiff-interface.c): a NUL in the first 8000 bytes. */
const BINARY_PROBE_BYTES = 8000;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lossyUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const strictUtf16le = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true });
const strictUtf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true });

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
 *
 * Source in a language AUREUS reads (detectLanguage) is text whenever its bytes decode exactly,
 * as its parser reads them: UTF-8, or UTF-16 after that encoding's byte order mark (TypeScript
 * reads both), NUL bytes included. git's NUL rule would call such a file binary, which a change
 * could use to hide code from the critic; the parser instead reads a NUL in a comment or a
 * string and reports one anywhere else as a syntax error. Bytes that decode as neither (an image
 * renamed `.ts`, random bytes), and every other file, follow git's rule.
 */
export function describeBlob(facts: BlobFacts): FileVersion {
  const { path, blobSha, mode, size, bytes } = facts;
  const base = { path, blobSha, mode, size };
  if (mode === SUBMODULE_MODE) return { ...base, kind: 'submodule' };
  if (mode === SYMLINK_MODE) return { ...base, kind: 'symlink' };
  if (bytes === undefined) return { ...base, kind: 'too-large' };
  const stored = lfsPointerSize(bytes);
  if (stored !== undefined) return { ...base, size: stored, kind: 'too-large', lfsPointer: true };
  const binaryToGit = bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
  // A script named without an extension whose `#!` line may name its language reads as source.
  const script = hasNoExtension(path) && bytes[0] === 0x23 && bytes[1] === 0x21;
  const source = detectLanguage(path) === undefined && !script ? undefined : sourceText(bytes);
  if (source !== undefined) {
    return { ...base, kind: 'text', ...source, ...(binaryToGit ? { binaryToGit } : {}) };
  }
  if (binaryToGit) return { ...base, kind: 'binary' };
  try {
    return { ...base, kind: 'text', text: strictUtf8.decode(bytes), validUtf8: true };
  } catch {
    return { ...base, kind: 'text', text: lossyUtf8.decode(bytes), validUtf8: false };
  }
}

/**
 * The text of source bytes that decode exactly, or undefined. A UTF-16 text keeps its byte order
 * mark, as a UTF-8 one does, and is not `validUtf8`: written back as UTF-8 it is other bytes.
 */
function sourceText(bytes: Buffer): { text: string; validUtf8: boolean } | undefined {
  const decoder = startsWith(bytes, 0xff, 0xfe)
    ? strictUtf16le
    : startsWith(bytes, 0xfe, 0xff)
      ? strictUtf16be
      : strictUtf8;
  try {
    return { text: decoder.decode(bytes), validUtf8: decoder === strictUtf8 };
  } catch {
    return undefined;
  }
}

/** Git LFS's pointer format: at most 1024 bytes, these keys among its `key value` lines. */
const LFS_POINTER_BYTES = 1024;
const LFS_POINTER =
  /^version https:\/\/(?:git-lfs\.github\.com|hawser\.github\.com)\/spec\/v1\n(?:[a-z0-9.-]+ [^\n]*\n)*$/;
const LFS_OID = /^oid sha256:[0-9a-f]{64}$/m;
const LFS_SIZE = /^size (\d{1,15})$/m;

/**
 * The size a Git LFS pointer records, or undefined for any other blob. A pointer stands for
 * contents git does not hold: read as text, a file of any size would be priced as the three
 * lines of its pointer. Whatever `.gitattributes` says (it is the change's own), the bytes
 * decide, as the LFS client decides.
 */
function lfsPointerSize(bytes: Buffer): number | undefined {
  if (bytes.length > LFS_POINTER_BYTES || bytes[0] !== 0x76) return undefined;
  const text = bytes.toString('latin1');
  if (!LFS_POINTER.test(text) || !LFS_OID.test(text)) return undefined;
  const size = LFS_SIZE.exec(text)?.[1];
  return size === undefined ? undefined : Number(size);
}

function startsWith(bytes: Buffer, first: number, second: number): boolean {
  return bytes[0] === first && bytes[1] === second;
}

/** Whether describeBlob classifies the same bytes alike under both paths (only source is read past git's NUL rule). */
export function classifiedAlike(path: string, other: string): boolean {
  return (detectLanguage(path) === undefined) === (detectLanguage(other) === undefined);
}

/** A submodule side: the commit it points at, nothing to read. */
export function submoduleVersion(path: string, commitSha: string): FileVersion {
  return { path, blobSha: commitSha, mode: SUBMODULE_MODE, kind: 'submodule', size: 0 };
}
