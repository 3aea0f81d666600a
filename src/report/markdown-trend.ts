import type { Report } from '../model/report.js';

/** Earlier changes shown beside this one: enough for a trend, small enough for a comment. */
export const TREND_CHECKS = 10;
/** Fewer earlier changes than this make no trend worth a chart. */
const MIN_HISTORY = 3;
/**
 * No change costs more points than this; a ledger value past it is not a cost, and JavaScript
 * would write it in exponent notation, which is not a Mermaid number.
 */
const MAX_COST = 1e12;

/**
 * A Mermaid chart GitHub draws in the comment: the cost of the last changes judged on the
 * target branch and of this one (also drawn as a bar, to mark it), against the change budget's
 * warning and blocking lines. Mermaid text is a markup language of its own, so only numbers and
 * fixed words go into it: nothing a ledger or a pull request holds can change the chart's text.
 * `history` is the earlier changes' costs, oldest first.
 */
export function trendSection(report: Report, history: readonly number[]): string[] {
  const earlier = history.filter((cost) => Math.abs(cost) <= MAX_COST).slice(-TREND_CHECKS);
  if (earlier.length < MIN_HISTORY) return [];
  const costs = [...earlier, report.cost.total];
  const labels = costs.map((_, index) =>
    index === costs.length - 1 ? '"this PR"' : `"${index - costs.length + 1}"`,
  );
  const series = (values: readonly number[]) => `[${values.map(format).join(', ')}]`;
  const level = (value: number) => series(costs.map(() => value));
  const marked = costs.map((cost, index) => (index === costs.length - 1 ? cost : 0));
  return [
    '#### Cost trend',
    '',
    `Cost of the last ${earlier.length} changes judged on the target branch and of this pull request (the bar), in points, against the budget's warning line (${format(report.budget.warn)}) and blocking line (${format(report.budget.block)}).`,
    '',
    '```mermaid',
    'xychart-beta',
    '    title "Cost per change (points)"',
    `    x-axis "Change" [${labels.join(', ')}]`,
    '    y-axis "Points"',
    `    bar ${series(marked)}`,
    `    line ${series(costs)}`,
    `    line ${level(report.budget.warn)}`,
    `    line ${level(report.budget.block)}`,
    '```',
  ];
}

/** A number rounded to hundredths: digits, a point and a sign are all it can hold. */
function format(value: number): string {
  return Math.abs(value) <= MAX_COST ? String(Math.round(value * 100) / 100) : '0';
}
