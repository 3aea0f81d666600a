import type { Language, Span } from '../../model/facts.js';

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
 * The characters that end a line for a language's own parser. A line ends at `\n`, and `\r\n`
 * is one ending (the `\r` is whitespace on that line, so CRLF files count like LF files, as
 * git counts them). Where the language ends a line at a lone `\r` too (JavaScript, Python,
 * Java), or at U+2028/U+2029 (JavaScript), so does the index: a file laid out with those breaks
 * is as many lines to its parser as to an editor, and counting only `\n` would measure it as
 * one long line, a fraction of its size. Go ends lines at `\n` alone (a `\r` is whitespace).
 */
export type LineBreaks = 'lf' | 'cr-lf' | 'script';

export function lineBreaksOf(language: Language): LineBreaks {
  if (language === 'go') return 'lf';
  if (language === 'python' || language === 'java') return 'cr-lf';
  return 'script';
}

/**
 * The physical lines of a text, ended as `breaks` says (LineBreaks); a final line ending does
 * not start an extra line; an empty text has no lines.
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

export function createLineIndex(text: string, breaks: LineBreaks = 'lf'): LineIndex {
  const lineStarts =
    breaks === 'lf' || !/[\r\u2028\u2029]/.test(text)
      ? lineFeedStarts(text)
      : breakStarts(text, breaks);
  // The position after a final line ending begins no line; neither does an empty text.
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

/**
 * The physical lines of a text as the index counts them (`breaks`: LineBreaks), each with its
 * ending: the one splitter for every count of lines, so text no parser reads ends its lines
 * where parsed code does.
 */
export function linesOf(text: string, breaks: LineBreaks): string[] {
  const { lineStarts } = createLineIndex(text, breaks);
  return lineStarts.map((start, index) => text.slice(start, lineStarts[index + 1] ?? text.length));
}

function lineFeedStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

const CR = 13;
const LF = 10;

function breakStarts(text: string, breaks: LineBreaks): number[] {
  const starts = [0];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const ends =
      code === LF ||
      (code === CR && text.charCodeAt(at + 1) !== LF) ||
      (breaks === 'script' && (code === 0x2028 || code === 0x2029));
    if (ends) starts.push(at + 1);
  }
  return starts;
}
