import type { Span } from '../../model/facts.js';

/**
 * Offsets are UTF-16 code unit indexes into the source string, end exclusive: what
 * web-tree-sitter's `startIndex`/`endIndex` and TypeScript's node positions both are, so every
 * extractor turns positions into lines through the same table.
 */
export interface TextRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The physical lines of a text. A line ends at `\n` (a `\r` before it is whitespace on that
 * line, so CRLF files count like LF files, as git counts them); a final newline does not start
 * an extra line; an empty text has no lines.
 */
export interface LineIndex {
  readonly lineCount: number;
  /** Offset of the first character of each line (index 0 = line 1). */
  readonly lineStarts: readonly number[];
  /** 1-based line holding the character at `offset` (clamped to the last line). */
  lineOf(offset: number): number;
  /** The lines a range covers; its last character decides the end line. */
  spanOf(range: TextRange): Span;
}

export function createLineIndex(text: string): LineIndex {
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    lineStarts.push(at + 1);
  }
  // The position after a final newline begins no line; neither does an empty text.
  if (lineStarts.at(-1) === text.length) lineStarts.pop();
  const lineCount = lineStarts.length;

  const lineOf = (offset: number): number => {
    let low = 0;
    let high = lineCount - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };

  return {
    lineCount,
    lineStarts,
    lineOf,
    spanOf: (range) => {
      const start = lineOf(range.start);
      return { start, end: Math.max(start, lineOf(range.end - 1)) };
    },
  };
}
