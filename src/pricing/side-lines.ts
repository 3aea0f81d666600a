import type { PricedSide } from './priced-files.js';

/** Bytes that cost one point when a binary or too-large file is added or replaced. */
export const BYTES_PER_SIZE_POINT = 4096;

/**
 * What one side of a file weighs in lines:
 * - with facts (a supported language): its code lines as the parser sees them (FileFacts `loc`:
 *   comments and blank lines are free, code squeezed onto few lines is not);
 * - a text file without facts (another language, docs, data): its non-blank lines, the best
 *   measure of a file no extractor reads, but never fewer than its size units (one per 4 KiB
 *   started), so 5 MB of text on one line weighs what the same bytes as a binary would;
 * - anything else (binary, too-large, symlink, submodule, unreadable) and an absent side: 0
 *   lines; binary and too-large files are priced by size instead (sizeUnits).
 * `unit` says which measure was used, for the item's detail.
 */
export function sideLines(side: PricedSide | null): { count: number; unit: 'code' | 'text' } {
  if (side === null) return { count: 0, unit: 'code' };
  if (side.facts !== undefined) return { count: side.facts.loc, unit: 'code' };
  const { kind, text, size } = side.version;
  if (kind === 'text' && text !== undefined) {
    const count = Math.max(nonBlankLines(text), Math.ceil(size / BYTES_PER_SIZE_POINT));
    return { count, unit: 'text' };
  }
  return { count: 0, unit: 'code' };
}

export function nonBlankLines(text: string): number {
  let count = 0;
  for (const line of text.split('\n')) if (line.trim() !== '') count += 1;
  return count;
}

/**
 * Size units of a head side that is binary or too large to read: one per 4 KiB started, at
 * least 1, so such a file is never free (its lines are unknown, and a blob in the repository
 * is still something to keep). Null for every other side. Only the head's size counts: a
 * replaced blob is new bytes as a whole, and a deleted or shrunk one earns nothing, since
 * its size says nothing about code removed.
 */
export function sizeUnits(side: PricedSide | null): number | null {
  if (side === null) return null;
  const { kind, size } = side.version;
  if (kind !== 'binary' && kind !== 'too-large') return null;
  return Math.max(1, Math.ceil(size / BYTES_PER_SIZE_POINT));
}

/** `12 KiB`, `512 B`: a size for a detail or note. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
}
