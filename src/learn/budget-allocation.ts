import type { Policy } from '../model/policy.js';
import type { LearnedCheck } from './ledger-checks.js';
import { type PolicyEdit, roundUpToTen } from './policy-edit.js';

/** The team's own change costs, and the budget they suggest. */
export interface BudgetAllocation {
  readonly changes: number;
  /** Cost percentiles (50, 90, the configured warn and block percentiles, the most). */
  readonly percentiles: Readonly<Record<string, number>>;
  readonly suggested: { readonly warn: number; readonly block: number };
  /** Blocked checks, and how many of them went through by an override anyway. */
  readonly blocked: number;
  readonly overridden: number;
  /** The dearest change as a share of budgets.change.block. */
  readonly usedShare: number;
}

/**
 * A per-change budget from the team's distribution of change costs: the
 * `learning.budget_percentiles` of the costs checked in the window, rounded up to ten. It is
 * proposed only as a tightening where no change used more than half of today's budget; a
 * raise comes from overrides alone (override-learning.ts), since a person let those through.
 */
export function budgetAllocation(
  checks: readonly LearnedCheck[],
  policy: Policy,
): { allocation: BudgetAllocation | null; edits: PolicyEdit[] } {
  const measured = checks.filter((check) => check.verdict !== 'incomplete');
  if (measured.length < policy.learning.min_changes) return { allocation: null, edits: [] };
  const costs = measured.map((check) => check.total).sort((a, b) => a - b);
  const { warn: warnAt, block: blockAt } = policy.learning.budget_percentiles;
  const block = roundUpToTen(percentile(costs, blockAt));
  const warn = Math.min(roundUpToTen(percentile(costs, warnAt)), block);
  const most = costs.at(-1) ?? 0;
  const current = policy.budgets.change;
  const allocation: BudgetAllocation = {
    changes: costs.length,
    percentiles: {
      p50: percentile(costs, 50),
      p90: percentile(costs, 90),
      [`p${warnAt}`]: percentile(costs, warnAt),
      [`p${blockAt}`]: percentile(costs, blockAt),
      max: most,
    },
    suggested: { warn, block },
    blocked: measured.filter((check) => check.verdict === 'block').length,
    overridden: measured.filter((check) => check.override !== null).length,
    usedShare: current.block > 0 ? most / current.block : 0,
  };
  if (most > current.block / 2 || block >= current.block) return { allocation, edits: [] };
  const why = `no change of the ${costs.length} checked used more than half of the budget (the dearest cost ${most} of ${current.block} points); the team's p${blockAt} and p${warnAt} are ${percentile(costs, blockAt)} and ${percentile(costs, warnAt)}.`;
  const edits: PolicyEdit[] = [
    {
      path: ['budgets', 'change', 'block'],
      from: current.block,
      to: block,
      kind: 'budget',
      why,
      evidence: [],
    },
  ];
  // A tightening never raises the warning line, even where the team's percentile is above it.
  if (warn < current.warn)
    edits.push({
      path: ['budgets', 'change', 'warn'],
      from: current.warn,
      to: warn,
      kind: 'budget',
      why: `the team's p${warnAt}, rounded up to ten.`,
      evidence: [],
    });
  return { allocation, edits };
}

/** Nearest-rank percentile of sorted values: always one of the costs actually seen. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}
