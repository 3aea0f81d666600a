import type { Policy } from '../model/policy.js';
import type {
  ActionPreview,
  GateName,
  Phase,
  Tier,
  ToolDefinition,
  ToolResult,
} from './tool-contract.js';

/**
 * The gates the loop puts before every action, in the order they run. Each returns `null` to let
 * the action through or the refusal the model gets back as its tool result, so the model learns
 * why and what to try instead. They read only numbers the loop already holds: a gate check costs
 * no I/O, whatever the repository's size.
 */

export type Refusal = Extract<ToolResult, { ok: false }> & { readonly refusedBy: GateName };

/**
 * How a tier-2 action is approved: `--yes` allows them all, an interactive run asks the operator
 * for each, and a run with neither denies them.
 */
export type TierApproval = 'ask' | 'yes-flag' | 'none';

export interface GateContext {
  readonly policy: Policy;
  readonly phase: Phase;
  /** Points the run has spent so far, priced as `aureus check` prices the branch. */
  readonly spentPoints: number;
  /** The plan's allocation in points, once a plan was accepted. */
  readonly planAllocation: number | null;
  readonly approval: TierApproval;
}

/** The plan's estimate may be exceeded by this fraction before the budget gate refuses. */
export const PLAN_MARGIN = 0.25;

function refuse(refusedBy: GateName, error: string, hint: string): Refusal {
  return { ok: false, refusedBy, error, hint };
}

export function phaseGate(tool: ToolDefinition, context: GateContext): Refusal | null {
  if (tool.phases.includes(context.phase)) return null;
  return refuse(
    'phase',
    `${tool.spec.name} is not offered in the ${context.phase} phase.`,
    `Use it in ${tool.phases.join(' or ')}; finish this phase first.`,
  );
}

/** The action's own price: its tier's points plus the priced effect of the files it changes. */
export function actionPoints(policy: Policy, tier: Tier, effectPoints: number): number {
  const prices = policy.pricing.tool;
  const byTier = {
    0: prices.tier_0,
    1: prices.tier_1,
    2: prices.tier_2,
    3: prices.tier_3,
  } as const;
  const tierPoints = byTier[tier];
  return tierPoints + effectPoints;
}

/** `warn` is true when the action is logged as expensive (cost_thresholds.action_warn). */
export function costGate(
  points: number,
  context: GateContext,
): { readonly refusal: Refusal | null; readonly warn: boolean } {
  const { action_warn, action_block } = context.policy.cost_thresholds;
  if (points > action_block) {
    return {
      refusal: refuse(
        'cost',
        `This action costs ${points} points, over cost_thresholds.action_block (${action_block}).`,
        'Split it into smaller edits, or reuse existing code instead of adding new code.',
      ),
      warn: true,
    };
  }
  return { refusal: null, warn: points >= action_warn };
}

export function budgetGate(points: number, context: GateContext): Refusal | null {
  // An action that adds nothing cannot take the run further past a limit: reads, verification
  // and deletions stay allowed, so a run over its allocation can still shrink its change.
  if (points <= 0) return null;
  const after = context.spentPoints + points;
  const block = context.policy.budgets.change.block;
  if (after > block) {
    return refuse(
      'budget',
      `After this action the run would cost ${after} points, over budgets.change.block (${block}).`,
      'Make the change smaller, or delete code the task makes unnecessary.',
    );
  }
  if (context.planAllocation !== null) {
    const allowed = context.planAllocation * (1 + PLAN_MARGIN);
    if (after > allowed) {
      return refuse(
        'budget',
        `After this action the run would cost ${after} points, over the plan's ${context.planAllocation} plus ${PLAN_MARGIN * 100}%.`,
        'Stay within the plan, or stop and say why the plan was wrong.',
      );
    }
  }
  return null;
}

export function tierGate(tier: Tier, context: GateContext): Refusal | null {
  const maxTier = context.policy.permissions.max_tier;
  if (tier === 3) {
    return refuse(
      'tier',
      'Tier 3 actions (publishing) never run locally.',
      'Leave publishing to the user.',
    );
  }
  if (tier > maxTier) {
    return refuse(
      'tier',
      `This is a tier ${tier} action; permissions.max_tier is ${maxTier}.`,
      'Use a lower-tier tool, or ask the user to raise permissions.max_tier.',
    );
  }
  if (tier === 2 && context.approval === 'none') {
    return refuse(
      'tier',
      'Tier 2 actions need approval: the run is not interactive and --yes was not given.',
      'Do without it; the user may run again with --yes, or from a terminal to be asked.',
    );
  }
  return null;
}

export interface GateDecision {
  readonly gate: GateName;
  readonly verdict: 'pass' | 'warn' | 'refused';
}

/**
 * Runs the gates in their fixed order — phase, cost, budget, tier, safety — and stops at the
 * first refusal. Every decision is returned for the trajectory, the passes as well as the
 * refusal. `safety` judges the would-be file state (the critic) and is only asked when the
 * cheaper gates have let the action through; so is the operator (`approve`), for a tier-2
 * action of an interactive run, once the tier gate let it through.
 */
export async function runGates(
  tool: ToolDefinition,
  effectPoints: number,
  context: GateContext,
  safety: () => Promise<Refusal | null>,
  approve: () => Promise<boolean> = async () => false,
): Promise<{ readonly decisions: readonly GateDecision[]; readonly refusal: Refusal | null }> {
  const decisions: GateDecision[] = [];
  const stop = (refusal: Refusal) => {
    decisions.push({ gate: refusal.refusedBy, verdict: 'refused' });
    return { decisions, refusal };
  };
  const phase = phaseGate(tool, context);
  if (phase !== null) return stop(phase);
  decisions.push({ gate: 'phase', verdict: 'pass' });
  const points = actionPoints(context.policy, tool.tier, effectPoints);
  const cost = costGate(points, context);
  if (cost.refusal !== null) return stop(cost.refusal);
  decisions.push({ gate: 'cost', verdict: cost.warn ? 'warn' : 'pass' });
  const budget = budgetGate(points, context);
  if (budget !== null) return stop(budget);
  decisions.push({ gate: 'budget', verdict: 'pass' });
  const tier = tierGate(tool.tier, context);
  if (tier !== null) return stop(tier);
  if (tool.tier === 2 && context.approval === 'ask' && !(await approve()))
    return stop(
      refuse(
        'tier',
        'The operator did not allow this tier 2 action.',
        'Do without it, or say in your summary what the user should run themselves.',
      ),
    );
  decisions.push({ gate: 'tier', verdict: 'pass' });
  const unsafe = await safety();
  if (unsafe !== null) return stop(unsafe);
  decisions.push({ gate: 'safety', verdict: 'pass' });
  return { decisions, refusal: null };
}

/** What the operator is asked about a tier-2 action: the tool and what it would do. */
export function approvalQuestion(tool: string, preview: ActionPreview): string {
  const what =
    preview.kind === 'command'
      ? preview.argv.join(' ')
      : preview.kind === 'files'
        ? preview.effects.map((effect) => effect.path).join(' ')
        : preview.kind === 'commit'
          ? preview.message
          : '';
  return `Allow ${tool} ${what}? [y/N] `;
}
