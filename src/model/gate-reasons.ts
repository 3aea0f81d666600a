/**
 * How the gate (src/gate/review.ts) words its reasons, read back by those who audit or learn
 * from the ledger, which keeps a check's reasons rather than its findings: a finding is
 * `STATUS RULE: …` when it blocks and `STATUS RULE (warning): …` (or `(within its growth
 * tolerance)`) when it does not; a change over its budget names `budgets.change.block`.
 */

/** The rule a reason names for a finding, blocking or not; undefined for any other reason. */
export function ruleOfReason(reason: string): string | undefined {
  return /^(?:new|worsened|baseline) ([^\s:(]+)(?::| \()/.exec(reason)?.[1];
}

/** The rule of a finding that blocked the change; undefined when the reason is no such finding. */
export function blockingRuleOfReason(reason: string): string | undefined {
  return /^(?:new|worsened) ([^\s:(]+):/.exec(reason)?.[1];
}

/** The change cost more than its budget (approved or not). */
export function isOverBudgetReason(reason: string): boolean {
  return /^the change costs -?[\d.]+ points, over the budget of [\d.]+ \(budgets\.change\.block\)/.test(
    reason,
  );
}
