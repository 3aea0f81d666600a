import type { FileVersion } from '../model/change.js';
import { AureusError } from '../model/errors.js';
import { lockfileReaderOf } from '../pricing/lockfiles.js';

/** Blobs above this many bytes are `too-large`: reported with their size, not read. */
export const DEFAULT_MAX_BLOB_BYTES = 1024 * 1024;

/**
 * The read limit of a changed lockfile AUREUS reads: the packages a change installs are priced
 * from it, and a project's npm lockfile passes 1 MiB at about 2,500 packages (the other
 * formats spend fewer bytes on each). 16 MiB holds some 40,000, and parses in well under a second.
 */
export const MAX_LOCKFILE_BYTES = 16 * 1024 * 1024;

/** The read limit a caller asked for, or the default; anything but a byte count is refused. */
export function checkedLimit(maxBlobBytes: number | undefined): number {
  const limit = maxBlobBytes ?? DEFAULT_MAX_BLOB_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new AureusError(
      `maxBlobBytes must be a whole number of bytes, not ${String(maxBlobBytes)}.`,
      'pass a non-negative integer, or leave it out for the 1 MiB default.',
    );
  }
  return limit;
}

/** The read limit of one changed file: `maxBytes`, raised to the lockfile limit for a lockfile AUREUS reads. */
export function readLimitOf(path: string, maxBytes: number): number {
  return lockfileReaderOf(path) === undefined ? maxBytes : Math.max(maxBytes, MAX_LOCKFILE_BYTES);
}

/**
 * The fact, in the same words from git and from the API. What it means for the verdict is the
 * core's to judge, by the base policy: an image over the limit is priced by its size, while a
 * file whose contents decide the price cannot be judged without them.
 */
export function tooLargeNote(version: FileVersion, limit: number): string {
  return `${version.path} is ${version.size} bytes, over the ${limit}-byte read limit, so its contents were not read.`;
}
