import { AureusError } from '../model/errors.js';

/** Blobs above this many bytes are `too-large`: reported with their size, not read. */
export const DEFAULT_MAX_BLOB_BYTES = 1024 * 1024;

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
