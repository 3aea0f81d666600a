/**
 * Untrusted text (file names, policy keys, symbols, finding messages, notes) made safe to print,
 * and the terminal's own styles, the only escapes a report writes.
 * Shared by every renderer and every entry point that writes for people: the terminal, the
 * hook, the PR comment, the Action log, annotations and SARIF messages.
 */

/** Line breaks and tabs: they would split a report line or a markdown table row. */
const WHITESPACE_CONTROLS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * What must never reach a terminal or a log raw: C0 and C1 controls and DEL (ESC and the 8-bit
 * CSI/OSC start escape sequences that recolour, retitle, hyperlink or rewrite the screen; CR
 * overwrites a line), the bidirectional controls of "Trojan Source" (a name that reads
 * differently than it is), and lone surrogates (a path's bytes that are not UTF-8, see
 * model/path-bytes.ts; no encoder can write them).
 */
const UNPRINTABLE = /[\p{Cc}\p{Bidi_Control}]|\p{Surrogate}/gu;

/** The same, but a line break or a tab: what a multi-line message may keep. */
const UNPRINTABLE_IN_LINES = /[^\P{Cc}\t\n]|\p{Bidi_Control}|\p{Surrogate}/gu;

/** The lone surrogates model/path-bytes.ts uses for the bytes 0x80–0xFF. */
const ESCAPED_BYTE_FIRST = 0xdc80;
const ESCAPED_BYTE_LAST = 0xdcff;

/**
 * The visible form of one unprintable character: `\xFE` for a byte of a path that is not UTF-8,
 * `\u001B` for a code point, so a name shows what it holds (`x\xFE.ts` and `x\xFF.ts` stay
 * two names) and nothing acts on the screen. A backslash is not escaped: the form is for reading,
 * and identity is kept in the data, never in this text.
 */
function escapeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const hex = (value: number, width: number) =>
    value.toString(16).toUpperCase().padStart(width, '0');
  if (code >= ESCAPED_BYTE_FIRST && code <= ESCAPED_BYTE_LAST) {
    return `\\x${hex(code - 0xdc00, 2)}`;
  }
  return `\\u${hex(code, 4)}`;
}

/**
 * The text with every character that could act on a terminal or a log, or hide what a name
 * is, shown as an escape; line breaks and tabs are kept (see oneLine for a single line).
 */
export function escapeControls(text: string): string {
  return text.replace(UNPRINTABLE_IN_LINES, escapeCharacter);
}

/** The text on one line (line breaks and tabs as spaces), with every other control escaped. */
export function oneLine(text: string): string {
  return text.replace(WHITESPACE_CONTROLS, ' ').replace(UNPRINTABLE, escapeCharacter);
}

/**
 * JSON for a terminal or a log: the same value (`JSON.parse` gives it back exactly, lone
 * surrogates included, as JSON.stringify writes them `\udcfe`), with the characters
 * JSON.stringify leaves raw (DEL, C1 and bidirectional controls) escaped too: they can only
 * stand inside strings, where `\u009B` is a JSON escape for the same character. Every C0
 * control inside a string is escaped already, so a line break left is indentation.
 */
export function jsonText(value: unknown, indent?: number): string {
  return escapeControls(JSON.stringify(value, null, indent));
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

/**
 * How many of `total` items a list capped at `cap` shows: the cap, but every item when only one
 * would be left out, since "… and 1 more" takes the line the item itself would.
 */
export function shownCount(total: number, cap: number): number {
  return total === cap + 1 ? total : Math.min(total, cap);
}

/** "… and 12 more" after a capped list, or nothing when the whole list was shown. */
export function moreLine(total: number, shown: number, where = ''): string | null {
  return total > shown ? `… and ${total - shown} more${where}` : null;
}

/**
 * A line broken at spaces into lines of at most `width` code points, each after the first
 * indented two more than the line: a word wider than that (a long path) stays whole on a line
 * of its own, since a name cut in two can neither be read nor copied. No text is dropped.
 */
export function wrap(line: string, width: number): string[] {
  const indent = /^ */.exec(line)?.[0] ?? '';
  const lines: string[] = [];
  let current = indent;
  let words = 0;
  for (const [, gap = '', word = ''] of line.slice(indent.length).matchAll(/( *)(\S+)/g)) {
    const joined = words === 0 ? `${current}${word}` : `${current}${gap}${word}`;
    if (words > 0 && Array.from(joined).length > width) {
      lines.push(current);
      current = `${indent}  ${word}`;
    } else current = joined;
    words += 1;
  }
  return [...lines, current];
}

/** ANSI styles for the terminal report; with colour off every style is the identity. */
export type Style = 'plain' | 'bold' | 'dim' | 'red' | 'yellow' | 'green' | 'magenta' | 'boldRed';

const CODES: Readonly<Record<Exclude<Style, 'plain'>, readonly [string, string]>> = {
  bold: ['\u001b[1m', '\u001b[22m'],
  dim: ['\u001b[2m', '\u001b[22m'],
  red: ['\u001b[31m', '\u001b[39m'],
  yellow: ['\u001b[33m', '\u001b[39m'],
  green: ['\u001b[32m', '\u001b[39m'],
  magenta: ['\u001b[35m', '\u001b[39m'],
  boldRed: ['\u001b[1;31m', '\u001b[22;39m'],
};

export function paint(text: string, style: Style, color: boolean): string {
  if (!color || style === 'plain' || text === '') return text;
  const [open, close] = CODES[style];
  return `${open}${text}${close}`;
}
