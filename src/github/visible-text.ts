/**
 * Characters a reader of a rendered comment does not see but a program does: C0/C1 controls,
 * format characters (zero-width spaces and joiners, bidi embeddings, overrides and isolates,
 * soft hyphen, BOM), Unicode tags U+E0000–E007F (ASCII smuggling), variation selectors (emoji
 * smuggling), Hangul fillers, line and paragraph separators, and lone surrogates (THREATS row 9).
 * Text that AUREUS keeps from a comment (a budget approval's reason goes into the ledger) keeps
 * only what a human could have read.
 */
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029\u115F\u1160\u3164\uFFA0\p{Variation_Selector}\u{E0000}-\u{E007F}]/gu;

/**
 * `text` with tabs read as spaces, every invisible character removed, NFKC-normalised (fullwidth
 * letters, ligatures and compatibility spaces become their plain forms), whitespace runs
 * collapsed and the ends trimmed: what a reader saw, as one line.
 */
export function visibleText(text: string): string {
  return text
    .replace(/\t/g, ' ')
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** `text` in at most `max` code points (never half a surrogate pair), `…` marking a cut. */
export function boundedText(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
