import type { TextRange } from '../tree-sitter/line-index.js';

const SLASH = 47;
const STAR = 42;

/**
 * The comments of a file parsed by TypeScript, as oxc gives them.
 * TypeScript keeps comments as trivia between tokens, and its scanner alone cannot tell a
 * regular expression or a template continuation from a comment. The parsed tree can: every
 * token whose text may contain `//` or `/*` without starting a comment (string, template and
 * regular-expression literals, JSX text) is a node, collected during the walk as an opaque
 * range. Outside them, `//` and `/*` always start a comment, so one scan for `/` finds them all.
 * A `#!` line at the start is a comment too (ES2023's hashbang comment; oxc agrees).
 */
export function commentRanges(text: string, opaque: readonly TextRange[]): TextRange[] {
  const comments: TextRange[] = [];
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let position = 0;
  if (text.startsWith('#!', bom)) {
    position = lineEnd(text, bom);
    comments.push({ start: bom, end: position });
  }
  let next = 0;
  for (;;) {
    const slash = text.indexOf('/', position);
    if (slash === -1) return comments;
    let token = opaque[next];
    while (token !== undefined && token.end <= slash) token = opaque[++next];
    if (token !== undefined && token.start <= slash) {
      position = token.end;
      continue;
    }
    const following = text.charCodeAt(slash + 1);
    if (following === SLASH) {
      position = lineEnd(text, slash);
      comments.push({ start: slash, end: position });
    } else if (following === STAR) {
      const close = text.indexOf('*/', slash + 2);
      position = close === -1 ? text.length : close + 2;
      comments.push({ start: slash, end: position });
    } else {
      position = slash + 1;
    }
  }
}

/** Where a line comment ends: before the line break (`\r` of a CRLF included). */
function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  const end = newline === -1 ? text.length : newline;
  return text.charCodeAt(end - 1) === 13 ? end - 1 : end;
}
