import type { Report } from '../model/report.js';
import { moreLine, oneLine, paint, type Style, shownCount, wrap } from './plain-text.js';
import {
  alternativeText,
  headline,
  nonZeroCategories,
  signedPoints,
  VERDICT_STYLE,
} from './report-facts.js';

export interface HookTextOptions {
  readonly color: boolean;
  /** Lines the hook adds under the verdict: how to override, that the hook is advisory. */
  readonly footer?: readonly string[];
  /** Only the headline and the footer: for a pass, or when an earlier hook printed the rest. */
  readonly brief?: boolean;
  /** The terminal's width, to wrap every line at word boundaries; none: lines stay whole. */
  readonly width?: number | undefined;
}

/**
 * A git hook prints between the user's command and their next one, so the verdict must read at
 * a glance: about a dozen lines where `renderText` prints twenty. The full report stays one
 * `aureus check --staged` away.
 */
const SHOWN = { reasons: 3, alternatives: 3 };

/** `loc +420, abstractions +50`: the cost breakdown on one line, or null when nothing costs. */
function costLine(report: Report): string | null {
  const categories = nonZeroCategories(report.cost);
  if (categories.length === 0) return null;
  return `  cost: ${categories.map((c) => `${c.category} ${signedPoints(c.points)}`).join(', ')}`;
}

function capped<T>(items: readonly T[], cap: number, toLine: (item: T) => string): string[] {
  const shown = shownCount(items.length, cap);
  const more = moreLine(items.length, shown);
  return [...items.slice(0, shown).map(toLine), ...(more === null ? [] : [`  ${more}`])];
}

/**
 * The verdict of a hook in a few lines: the headline, the top reasons, the cost breakdown in one
 * line, the cheaper alternatives, then the hook's footer: at most 10 entries before the footer,
 * each wrapped to the width and whole (untrusted text made one line first, so none starts a line).
 * Ends in a newline, ready for a stream.
 */
export function renderHook(report: Report, options: HookTextOptions): string {
  const cost = costLine(report);
  const details = [
    ...capped(report.reasons, SHOWN.reasons, (reason) => `  - ${oneLine(reason)}`),
    ...(cost === null ? [] : [cost]),
    ...capped(
      report.alternatives,
      SHOWN.alternatives,
      (alternative) => `  → ${alternativeText(alternative)}: ${oneLine(alternative.message)}`,
    ),
  ];
  const { width } = options;
  const styled = (line: string, style: Style) =>
    (width === undefined ? [line] : wrap(line, width)).map((part) =>
      paint(part, style, options.color),
    );
  const lines = [
    ...styled(headline(report), VERDICT_STYLE[report.verdict]),
    ...(options.brief === true ? [] : details).flatMap((line) => styled(line, 'plain')),
    ...(options.footer ?? []).flatMap((line) => styled(line, 'dim')),
  ];
  return lines.map((line) => `${line}\n`).join('');
}
