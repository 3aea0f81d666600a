import { isWhitespace } from './line-counts.js';
import type { TextRange } from './line-index.js';

/**
 * Code characters a formatted line holds at most (FileFacts `loc`). Hand-written code averages
 * about 30 per code line, and its densest files (tables of regular expressions, long messages)
 * stay under 58 (rxjs, zod, effect and the real-code corpus of the tests): only code laid out
 * as no person lays it out is measured by this width.
 */
export const CODE_LINE_WIDTH = 64;

/** Code characters any span holds for free: a one-line function throwing a long message keeps its one line. */
export const CODE_WIDTH_ALLOWANCE = 500;

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
