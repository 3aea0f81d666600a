import type { Finding } from '../../model/finding.js';
import { coreSize } from '../core-size.js';
import { budgetFinding } from '../finding-of.js';
import type { Rule, RuleContext } from '../rule.js';

/**
 * The core's lines of code (coreSize: FileFacts `loc` summed over the core files, tests and
 * generated code left out) against `budgets.core_loc`:
 * - more than `hard`: a finding at the policy's severity;
 * - else more than `target`: a finding that is always a warning (advisory), since the target
 *   is where the core should stay, not a gate;
 * - else at or above `simplification.triggers.loc_budget_ratio` of the target (90 % by
 *   default) while simplification is enabled: an advisory warning that reflexion is due.
 * Both are the same finding (symbol `repository`, no location), so crossing `hard` later
 * shows as the baseline warning worsening; measured: the core's LOC, limit the bound crossed.
 */
export const locBudget: Rule = {
  id: 'loc_budget',
  description:
    'The core crosses budgets.core_loc.hard (blocks at the policy severity) or budgets.core_loc.target (always a warning).',
  check(context) {
    const { target, hard } = context.policy.budgets.core_loc;
    const { loc } = coreSize(context);
    const crossed =
      loc > hard
        ? { key: 'hard', bound: 'hard limit', limit: hard, advisory: false }
        : { key: 'target', bound: 'target', limit: target, advisory: true };
    if (loc <= crossed.limit) return reflexionDue(context, loc);
    const message = `the core holds ${loc} lines of code; its ${crossed.bound} is ${crossed.limit} (budgets.core_loc.${crossed.key})`;
    return [budgetFinding('loc_budget', message, loc, crossed.limit, crossed.advisory)];
  },
};

/** Near the target: simplify before the budget is spent, not after. */
function reflexionDue(context: RuleContext, loc: number): Finding[] {
  const { enabled, triggers } = context.policy.simplification;
  const { target } = context.policy.budgets.core_loc;
  const threshold = Math.ceil(target * triggers.loc_budget_ratio);
  if (!enabled || loc < threshold) return [];
  const message = `the core holds ${loc} lines of code, ${Math.round((loc / target) * 100)} % of its target ${target}: reflexion is due (simplification.triggers.loc_budget_ratio)`;
  return [budgetFinding('loc_budget', message, loc, threshold, true)];
}
