import {
  COST_CATEGORIES,
  type CostBreakdown,
  type CostCategory,
  type CostItem,
} from '../model/cost.js';
import type { FindingLocation } from '../model/finding.js';
import type { Alternative, Report, ReportFinding, Verdict } from '../model/report.js';
import type { Style } from './plain-text.js';

/**
 * What every renderer says the same way: the headline, the categories that cost something, the
 * largest items, the findings split into blocking and the rest. Keeping the wording here is
 * what makes the terminal, the PR comment and the check run tell the same verdict.
 */

/** Where a repository-wide finding (module, file or LOC budget) is reported: the budget lives there. */
export const POLICY_FILE = '.aureus/policy.yaml';

/**
 * The headline of a policy change: only a loosening needs a maintainer's approval; a change that
 * tightens or leaves the gate as it was is said, nothing more.
 */
export function policyChangeNotice(report: Report): string {
  if (report.policy.loosens.length === 0) return 'policy change';
  return report.policy.approval === null
    ? 'policy change — needs maintainer approval'
    : 'policy change — approved by a maintainer for this commit';
}

/** Points rounded to one decimal (a dependency costs own_loc/1000), never "-0". */
export function formatPoints(points: number): string {
  const rounded = Math.round(points * 10) / 10;
  return String(rounded === 0 ? 0 : rounded);
}

/** "+42" or "-12": the cost of a change is a delta, and deletions earn credit. */
export function signedPoints(points: number): string {
  const text = formatPoints(points);
  return points > 0 && text !== '0' ? `+${text}` : text;
}

/** "140 over" or "380 left". */
export function budgetLeft(report: Report): string {
  const { remaining } = report.budget;
  return remaining < 0 ? `${formatPoints(-remaining)} over` : `${formatPoints(remaining)} left`;
}

/** "640 points, budget 500 (140 over)". */
function budgetSummary(report: Report): string {
  const { budget, cost } = report;
  return `${formatPoints(cost.total)} points, budget ${formatPoints(budget.block)} (${budgetLeft(report)})`;
}

/** "AUREUS: BLOCK — 640 points, budget 500 (140 over)". */
export function headline(report: Report): string {
  return `AUREUS: ${report.verdict.toUpperCase()} — ${budgetSummary(report)}`;
}

export const VERDICT_EMOJI: Readonly<Record<Verdict, string>> = {
  pass: '✅',
  warn: '⚠️',
  block: '⛔',
  incomplete: '❔',
};

/** The terminal's colour of each verdict, in the text report and in the hook's. */
export const VERDICT_STYLE: Readonly<Record<Verdict, Style>> = {
  pass: 'green',
  warn: 'yellow',
  block: 'boldRed',
  incomplete: 'magenta',
};

export interface CategoryCost {
  readonly category: CostCategory;
  readonly points: number;
}

/** The categories that cost (or saved) something, in breakdown order. */
export function nonZeroCategories(cost: CostBreakdown): CategoryCost[] {
  return COST_CATEGORIES.map((category) => ({ category, points: cost[category] })).filter(
    (entry) => entry.points !== 0,
  );
}

/** Items by size of their effect, largest first; ties keep the report's order. */
export function largestCostItems(items: readonly CostItem[]): CostItem[] {
  return [...items].sort((a, b) => Math.abs(b.points) - Math.abs(a.points));
}

export interface FindingGroups {
  readonly blocking: readonly ReportFinding[];
  /** Non-blocking findings, new and worsened ones first: baseline findings are old news. */
  readonly others: readonly ReportFinding[];
  readonly counts: { readonly new: number; readonly worsened: number; readonly baseline: number };
}

export function groupFindings(findings: readonly ReportFinding[]): FindingGroups {
  const blocking = findings.filter((finding) => finding.blocking);
  const others = findings.filter((finding) => !finding.blocking);
  const fresh = others.filter((finding) => finding.status !== 'baseline');
  const old = others.filter((finding) => finding.status === 'baseline');
  const count = (status: ReportFinding['status']) =>
    others.filter((finding) => finding.status === status).length;
  return {
    blocking,
    others: [...fresh, ...old],
    counts: { new: count('new'), worsened: count('worsened'), baseline: old.length },
  };
}

/** Where a finding is reported: its own lines, or line 1 of the policy for repository-wide ones. */
export function placeOf(finding: ReportFinding): FindingLocation {
  return finding.location ?? { path: POLICY_FILE, startLine: 1, endLine: 1 };
}

/**
 * "src/a.ts:12" (the first line: where an editor jumps), "src/a.ts:12:7" for a finding at one
 * place of the line, or "(repository)" for repository-wide findings.
 */
export function locationText(location: FindingLocation | null): string {
  if (location === null) return '(repository)';
  const column = location.startColumn === undefined ? '' : `:${location.startColumn}`;
  return `${location.path}:${location.startLine}${column}`;
}

/** "new", "baseline", or for a worsened finding "worsened from 975, within its growth tolerance". */
export function statusText(finding: ReportFinding): string {
  const { growth } = finding;
  if (growth === null) return finding.status;
  const tolerated = growth.tolerated ? ', within its growth tolerance' : '';
  return `${finding.status} from ${growth.from}${tolerated}`;
}

/** "1 new, 2 worsened, 12 baseline", leaving out the zeros. */
export function statusCounts(counts: FindingGroups['counts']): string {
  const parts = [
    counts.new > 0 ? `${counts.new} new` : null,
    counts.worsened > 0 ? `${counts.worsened} worsened` : null,
    counts.baseline > 0 ? `${counts.baseline} baseline` : null,
  ];
  return parts.filter((part) => part !== null).join(', ');
}

/** "saves 25" or, for raising the budget, "needs 640"; null when the alternative has no figure. */
export function alternativePoints(alternative: Alternative): string | null {
  if (alternative.points === null) return null;
  const verb = alternative.kind === 'raise-budget' ? 'needs' : 'saves';
  return `${verb} ${formatPoints(alternative.points)}`;
}

/** `kind (saves N)` for a terminal, or the kind alone when the alternative has no price. */
export function alternativeText(alternative: Alternative): string {
  const points = alternativePoints(alternative);
  return points === null ? alternative.kind : `${alternative.kind} (${points})`;
}
