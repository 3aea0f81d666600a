import { oneLine } from './plain-text.js';

/** Markdown punctuation that could open a code span, emphasis, a link, or split a table cell. */
const MARKDOWN_PUNCTUATION = /[\\`*_[\]|~]/g;

/**
 * Untrusted text (a file name, a finding message) made inert in a GitHub comment, inline or in
 * a table cell. The choices, in order:
 * - one line, control characters out: a line break would end the table row;
 * - `&`, `<`, `>` as entities: no HTML, no entity tricks, and no forged copy of the hidden
 *   marker comment the sticky comment is found by;
 * - a backslash before `\` `` ` `` `*` `_` `[` `]` `|` `~`: no code span, emphasis, link, or cell split;
 * - a zero-width space (`&#8203;`, as Renovate does) after an `@` that could start a mention
 *   (not after a letter or digit, as in `policy.yaml@<sha>` or an e-mail address), and after `#`
 *   before a digit: GitHub links a mention or an issue reference only when the name or number
 *   follows directly, so nobody is pinged and no other issue gets a backlink, while the text
 *   still reads the same;
 * - the same zero-width space after a URL's `:` before `//` and after a `www` before `.`: GitHub
 *   makes a live link of a bare `https://…` or `www.…` (extended autolinks), which untrusted text
 *   (a dependency's name, a file's) must not become.
 */
export function escapeMarkdown(text: string): string {
  return oneLine(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MARKDOWN_PUNCTUATION, (character) => `\\${character}`)
    .replace(/(?<!\w)@|#(?=\d)|:(?=\/\/)|(?<![\w.])www(?=\.)/gi, (sign) => `${sign}&#8203;`);
}
