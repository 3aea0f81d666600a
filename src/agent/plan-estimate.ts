import type { CostBreakdown } from '../model/cost.js';
import type { JsonObject } from '../model/json.js';
import type { Policy } from '../model/policy.js';
import { roundPoints, sumPoints } from '../pricing/points.js';
import { PLAN_MARGIN, type Refusal } from './action-gates.js';

/**
 * The planner's estimate (submit_plan's `estimate`) priced into points by the weights
 * `aureus check` prices a change with (`pricing.*`), category by category, rounded as the core
 * rounds, so the estimate and the branch's actual cost read as one breakdown. Nothing is
 * credited: an estimate is what the run may spend, and deletions only leave it more room.
 */
export interface PlanEstimate {
  readonly files_added: number;
  readonly files_changed: number;
  /** Logical lines added outside the test paths. */
  readonly lines: number;
  /** Logical lines added under `paths.tests`, priced at `pricing.test_code_weight`. */
  readonly test_lines?: number;
  readonly abstractions: number;
  readonly dependencies: number;
  /** New modules (folders directly under a core root). */
  readonly modules?: number;
  /** Sensitive surfaces the change newly touches, one entry per touch. */
  readonly security?: readonly SecuritySurface[];
}

export type SecuritySurface = keyof Policy['pricing']['security'];

export const SECURITY_SURFACES: readonly SecuritySurface[] = [
  'process_spawn',
  'eval',
  'filesystem_write',
  'network',
  'crypto',
  'auth',
  'deserialization',
  'env_secrets',
];

export function priceEstimate(estimate: PlanEstimate, policy: Policy): CostBreakdown {
  const weights = policy.pricing;
  const categories = {
    loc: sumPoints([
      roundPoints(estimate.lines * weights.loc_added),
      roundPoints((estimate.test_lines ?? 0) * weights.loc_added * weights.test_code_weight),
    ]),
    // Each new dependency at the least it can cost: itself, one package more in the lockfile.
    dependencies: roundPoints(estimate.dependencies * weights.dependency.per_transitive_package),
    abstractions: roundPoints(estimate.abstractions * weights.abstraction),
    security: sumPoints(
      (estimate.security ?? []).map((surface) => roundPoints(weights.security[surface])),
    ),
    files: roundPoints(estimate.files_added * weights.file),
    modules: roundPoints((estimate.modules ?? 0) * weights.module),
    tool: 0,
  };
  return { ...categories, total: sumPoints(Object.values(categories)) };
}

/** The estimate as submit_plan's input checker let it through (its schema is in phase-tools.ts). */
export function isPlanEstimate(value: unknown): value is PlanEstimate {
  if (typeof value !== 'object' || value === null) return false;
  const record: Record<string, unknown> = { ...value };
  return ['files_added', 'files_changed', 'lines', 'abstractions', 'dependencies'].every(
    (key) => typeof record[key] === 'number',
  );
}

/** The points the accepted plan allows the run (before PLAN_MARGIN), from its priced estimate. */
export function allocationOf(plan: JsonObject | null, policy: Policy): number | null {
  const estimate = plan?.estimate;
  return isPlanEstimate(estimate) ? priceEstimate(estimate, policy).total : null;
}

export interface PlanJudgement {
  readonly estimatedPoints: number | null;
  /** Set when the estimate alone is over budgets.change.block: the plan is not accepted. */
  readonly refusal: Refusal | null;
  /** What the model is told of an accepted plan's points. */
  readonly allowance: { readonly estimatedPoints?: number; readonly allowedPoints?: number };
}

/** A plan is refused when its own estimate is already over the change budget. */
export function judgePlan(plan: JsonObject, policy: Policy): PlanJudgement {
  if (!isPlanEstimate(plan.estimate))
    return { estimatedPoints: null, refusal: null, allowance: {} };
  const estimate = priceEstimate(plan.estimate, policy);
  const block = policy.budgets.change.block;
  if (estimate.total > block)
    return {
      estimatedPoints: estimate.total,
      refusal: {
        ok: false,
        refusedBy: 'budget',
        error: `The plan's estimate costs ${estimate.total} points (${breakdownText(estimate)}), over budgets.change.block (${block}).`,
        hint: `Plan a smaller change: at most ${block} points. Reuse existing code, add fewer files, abstractions and dependencies.`,
      },
      allowance: {},
    };
  return {
    estimatedPoints: estimate.total,
    refusal: null,
    allowance: {
      estimatedPoints: estimate.total,
      allowedPoints: Math.min(block, roundPoints(estimate.total * (1 + PLAN_MARGIN))),
    },
  };
}

function breakdownText(cost: CostBreakdown): string {
  const categories = [
    'loc',
    'dependencies',
    'abstractions',
    'security',
    'files',
    'modules',
  ] as const;
  return categories
    .filter((category) => cost[category] !== 0)
    .map((category) => `${category} ${cost[category]}`)
    .join(', ');
}
