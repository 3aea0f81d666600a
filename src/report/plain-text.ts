/**
 * Untrusted text (file names, finding messages, notes) made safe to print on one line.
 * Shared by every renderer that writes for people: the terminal and the PR comment.
 */

/** Line breaks and tabs: they would split a report line or a markdown table row. */
const WHITESPACE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * Other C0/C1 controls (ESC starts terminal escape sequences that can rewrite the screen) and
 * the bidirectional overrides of "Trojan Source", which make a name read differently than it is.
 */
const HIDDEN_CONTROLS = /[\p{Cc}\p{Bidi_Control}]/gu;

/** A lone UTF-16 surrogate cannot be encoded as UTF-8 or in a URI. */
const LONE_SURROGATE = /\p{Surrogate}/gu;

const REPLACEMENT = '\uFFFD';

/** The text with no lone surrogates: safe for TextEncoder and encodeURIComponent. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, REPLACEMENT);
}

/** The text on one line, with every control character that could act on a terminal made visible. */
export function oneLine(text: string): string {
  return wellFormed(text).replace(WHITESPACE_CONTROLS, ' ').replace(HIDDEN_CONTROLS, REPLACEMENT);
}

/**
 * At most `maxChars` code points, ending in `…` when cut. Counting code points rather than
 * UTF-16 units never splits an emoji's surrogate pair.
 */
export function clip(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return text;
  if (maxChars <= 0) return '';
  return `${chars.slice(0, maxChars - 1).join('')}…`;
}

/** "… and 12 more" after a capped list, or nothing when the whole list was shown. */
export function moreLine(total: number, shown: number, where = ''): string | null {
  return total > shown ? `… and ${total - shown} more${where}` : null;
}
