import type { LineCounts, Span } from '../../model/facts.js';
import type { LineIndex, TextRange } from './line-index.js';

/** The LineCounts of a file, and the code lines of any span of it (for `loc`). */
export interface LineClassification {
  readonly counts: LineCounts;
  codeLinesIn(span: Span): number;
}

const BLANK = 0;
const COMMENT = 1;
const CODE = 2;

/**
 * Classifies every physical line (LineCounts in src/model/facts.ts), from the parser's comment
 * ranges and the ranges of string literals that span lines. Rules, the same for every language:
 * - a line with a non-whitespace character outside every comment is code;
 * - else a line touched by a comment (its text or its newline inside one) is a comment line, so
 *   an empty line inside a block comment is a comment line;
 * - else a line inside a multi-line string (a whitespace-only line of a template literal) is
 *   code: it is part of a value (a language may pass what it calls documentation, such as a
 *   docstring, as a comment instead);
 * - else it is blank.
 * Both range lists must be sorted by start; strings may nest (a template inside a template).
 */
export function classifyLines(
  text: string,
  lines: LineIndex,
  comments: readonly TextRange[],
  multiLineStrings: readonly TextRange[],
): LineClassification {
  const kinds = new Uint8Array(lines.lineCount);
  const comment = { ranges: comments, next: 0 };
  const string = { ranges: multiLineStrings, next: 0 };
  for (let line = 0; line < lines.lineCount; line++) {
    const start = lines.lineStarts[line] ?? 0;
    const next = lines.lineStarts[line + 1];
    // The line's own characters end before its newline (or at the end of the text).
    const end = next === undefined ? text.length : next - 1;
    const touchesComment = touches(comment, start, end);
    if (hasCodeOutside(text, start, end, comments, comment.next)) kinds[line] = CODE;
    else if (touchesComment) kinds[line] = COMMENT;
    else if (touches(string, start, end)) kinds[line] = CODE;
  }
  return summarize(kinds);
}

interface RangeCursor {
  readonly ranges: readonly TextRange[];
  /** The first range that may still touch this line or a later one. */
  next: number;
}

/** Whether a range covers any character of [start, end], the newline at `end` included. */
function touches(cursor: RangeCursor, start: number, end: number): boolean {
  let range = cursor.ranges[cursor.next];
  while (range !== undefined && range.end <= start) {
    cursor.next++;
    range = cursor.ranges[cursor.next];
  }
  return range !== undefined && range.start <= end;
}

function hasCodeOutside(
  text: string,
  start: number,
  end: number,
  comments: readonly TextRange[],
  firstComment: number,
): boolean {
  let position = start;
  let index = firstComment;
  while (position < end) {
    let range = comments[index];
    while (range !== undefined && range.end <= position) range = comments[++index];
    if (range !== undefined && range.start <= position) {
      position = range.end;
      continue;
    }
    const stop = range === undefined ? end : Math.min(end, range.start);
    for (; position < stop; position++) {
      if (!isWhitespace(text.charCodeAt(position))) return true;
    }
  }
  return false;
}

function isWhitespace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  // A BOM, a no-break space and the other Unicode spaces (what JavaScript's \s matches).
  return code > 127 && /\s/.test(String.fromCharCode(code));
}

function summarize(kinds: Uint8Array): LineClassification {
  // codeBefore[i] = code lines among lines 1..i, so a span's loc is one subtraction.
  const codeBefore = new Uint32Array(kinds.length + 1);
  let blank = 0;
  let comment = 0;
  for (let line = 0; line < kinds.length; line++) {
    const kind = kinds[line];
    codeBefore[line + 1] = (codeBefore[line] ?? 0) + (kind === CODE ? 1 : 0);
    if (kind === BLANK) blank++;
    else if (kind === COMMENT) comment++;
  }
  const code = kinds.length - blank - comment;
  return {
    counts: { code, comment, blank },
    codeLinesIn: (span) => {
      const last = Math.min(span.end, kinds.length);
      const first = Math.max(span.start, 1);
      return last < first ? 0 : (codeBefore[last] ?? 0) - (codeBefore[first - 1] ?? 0);
    },
  };
}

/** Whether a range spans a line break: only such strings matter to classifyLines. */
export function spansLines(lines: LineIndex, range: TextRange): boolean {
  return lines.lineOf(range.start) !== lines.lineOf(range.end - 1);
}

/**
 * Code characters a formatted line holds at most (FileFacts `loc`). Hand-written code averages
 * about 30 per code line, and its densest files (tables of regular expressions, long messages)
 * stay under 58 (rxjs, zod, effect and the real-code corpus of the tests): only code laid out
 * as no person lays it out is measured by this width.
 */
const CODE_LINE_WIDTH = 64;

/** Code characters any span holds for free: a one-line function throwing a long message keeps its one line. */
const CODE_WIDTH_ALLOWANCE = 500;

/**
 * The size in lines of a range of `text` that holds `codeLines` code lines: those lines, or one
 * per CODE_LINE_WIDTH code characters beyond CODE_WIDTH_ALLOWANCE when that is more. Code
 * characters are neither whitespace nor inside one of `comments` (sorted by start), so a minified
 * file weighs about what its formatted form does, and comments stay free.
 */
export type CodeSize = (range: TextRange, codeLines: number) => number;

export function codeSize(text: string, comments: readonly TextRange[]): CodeSize {
  let before: Uint32Array | undefined;
  return (range, codeLines) => {
    // The range's length bounds its code characters: formatted code never gets further.
    if (linesOf(range.end - range.start) <= codeLines) return codeLines;
    before ??= codeCharactersBefore(text, comments);
    return Math.max(codeLines, linesOf((before[range.end] ?? 0) - (before[range.start] ?? 0)));
  };
}

function linesOf(codeCharacters: number): number {
  return Math.ceil((codeCharacters - CODE_WIDTH_ALLOWANCE) / CODE_LINE_WIDTH);
}

/** before[i] = code characters among text[0..i), so a range's count is one subtraction. */
function codeCharactersBefore(text: string, comments: readonly TextRange[]): Uint32Array {
  const before = new Uint32Array(text.length + 1);
  let count = 0;
  let next = 0;
  for (let position = 0; position < text.length; position++) {
    let comment = comments[next];
    while (comment !== undefined && comment.end <= position) comment = comments[++next];
    const inComment = comment !== undefined && comment.start <= position;
    if (!inComment && !isWhitespace(text.charCodeAt(position))) count++;
    before[position + 1] = count;
  }
  return before;
}
