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

export function isWhitespace(code: number): boolean {
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
