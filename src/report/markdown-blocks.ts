import { escapeMarkdown } from './markdown-escape.js';
import { clip, moreLine, oneLine } from './plain-text.js';

/** The building blocks of the PR comment: escaped text, capped lists, tables. */

/** How much of every list and every text the comment shows; render-markdown shrinks them to fit. */
export interface MarkdownLimits {
  readonly rows: number;
  readonly cellChars: number;
}

export type Lines = readonly string[];

const SEE_ALSO = ' (see the job summary/artifact)';

/** Untrusted text: one line, clipped before escaping so an escape is never cut in half. */
export function text(value: string, limits: MarkdownLimits): string {
  return escapeMarkdown(clip(oneLine(value), limits.cellChars));
}

/** A capped list, then "… and N more" after a blank line (a line right after a table joins it). */
export function capped<T>(
  items: readonly T[],
  limits: MarkdownLimits,
  toLines: (shown: readonly T[]) => Lines,
): Lines {
  const shown = items.slice(0, limits.rows);
  const more = moreLine(items.length, shown.length, SEE_ALSO);
  if (shown.length === 0) return more === null ? [] : [more];
  return [...toLines(shown), ...(more === null ? [] : ['', more])];
}

export function table(header: string, align: string, rows: Lines): Lines {
  return [header, align, ...rows];
}

export function bullets(items: readonly string[], limits: MarkdownLimits): Lines {
  return capped(items, limits, (shown) => shown.map((item) => `- ${text(item, limits)}`));
}
