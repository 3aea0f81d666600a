import type { OxcError } from 'oxc-parser';
import type { TextRange } from '../tree-sitter/line-index.js';

/** At most this many parses after the first: a file broken all over is not read to its end. */
const MAX_REPARSES = 20;

interface Parsed {
  readonly program: { readonly body: readonly unknown[] };
  readonly comments: readonly TextRange[];
  readonly errors: readonly OxcError[];
}

/**
 * A `#!` line at the start is a comment (ES2023's hashbang comment), as TypeScript's comment
 * scan and tree-sitter have it. oxc reports it apart from the comments, and not at all past a
 * fatal error, so it is read from the text.
 */
export function hashbangComment(text: string): TextRange | null {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('#!', bom)) return null;
  const newline = text.indexOf('\n', bom);
  const end = newline === -1 ? text.length : newline;
  return { start: bom, end: text.charCodeAt(end - 1) === 13 ? end - 1 : end };
}

/**
 * oxc stops at most syntax errors and returns an empty tree with the comments met so far,
 * where TypeScript and tree-sitter recover and read on. So that the line counts of a broken
 * file see the comments further down alike, the text is parsed again from the line after the
 * error, everything before it blanked out (line breaks kept, so offsets and lines hold), as
 * often as errors stop it. Only comments are taken from these parses: the tree of a text cut
 * at an arbitrary line is no fact about the file.
 */
export function commentsBeyondFatalError(
  text: string,
  errors: readonly OxcError[],
  reparse: (text: string) => Parsed,
): TextRange[] {
  const comments: TextRange[] = [];
  let from = lineAfter(text, furthest(errors));
  for (let count = 0; count < MAX_REPARSES && from < text.length; count++) {
    const result = reparse(text.slice(0, from).replace(/[^\n]/g, ' ') + text.slice(from));
    comments.push(...result.comments);
    // Without an error, or after one it recovered from, the parse has read to the end.
    if (result.errors.length === 0 || result.program.body.length > 0) break;
    const next = lineAfter(text, furthest(result.errors));
    if (next <= from) break;
    from = next;
  }
  return comments;
}

/** The furthest place an error points to: where the parser stopped. */
function furthest(errors: readonly OxcError[]): number {
  let at = 0;
  for (const error of errors) for (const label of error.labels) at = Math.max(at, label.start);
  return at;
}

function lineAfter(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}
