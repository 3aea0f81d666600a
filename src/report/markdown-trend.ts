import type { Report } from '../model/report.js';

/** One earlier check of the repository, as the ledger AUREUS wrote records it. */
export interface CostTrendPoint {
  readonly cost: number;
  /** The change budget's block line at that check. */
  readonly budget: number;
}

/** Earlier checks shown beside this one: enough for a trend, small enough for a comment. */
export const TREND_CHECKS = 10;
/** Fewer earlier checks than this make no trend worth a chart. */
const MIN_HISTORY = 2;

/**
 * A Mermaid line chart GitHub draws in the comment: the cost of the repository's last checks
 * and of this one, against the budget. Only numbers and fixed words go into it, so nothing a
 * ledger or a pull request holds can change the chart's text.
 */
export function trendSection(report: Report, history: readonly CostTrendPoint[]): string[] {
  const earlier = history.filter((point) => finite(point.cost) && finite(point.budget));
  if (earlier.length < MIN_HISTORY) return [];
  const points = [
    ...earlier.slice(-TREND_CHECKS),
    { cost: report.cost.total, budget: report.budget.block },
  ];
  const labels = points.map((_, index) =>
    index === points.length - 1 ? '"this"' : `"${index - points.length + 1}"`,
  );
  const numbers = (values: number[]) => `[${values.map(format).join(', ')}]`;
  return [
    '#### Cost trend',
    '',
    `Cost of this change and of the repository's ${points.length - 1} checks before it (solid), against the budget (second line), in points.`,
    '',
    '```mermaid',
    'xychart-beta',
    '    title "Cost per change against the budget"',
    `    x-axis "Check" [${labels.join(', ')}]`,
    '    y-axis "Points"',
    `    line ${numbers(points.map((point) => point.cost))}`,
    `    line ${numbers(points.map((point) => point.budget))}`,
    '```',
  ];
}

const finite = (value: number) => Number.isFinite(value);
const format = (value: number) => String(Math.round(value * 100) / 100);
