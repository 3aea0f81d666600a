import { type BudgetAllocation, budgetAllocation } from './budget-allocation.js';
import { type Calibration, calibrate } from './calibration.js';
import type { LearnInput } from './learn-input.js';
import { checksInWindow } from './ledger-checks.js';
import { overrideEdits } from './override-learning.js';
import type { PolicyEdit } from './policy-edit.js';

/** What `aureus learn` proposes, and what it rests on. Never applied by AUREUS itself. */
export interface LearnProposal {
  readonly windowDays: number;
  /** Checks learned from (each change once), and the commits of history read. */
  readonly checks: number;
  readonly commits: number;
  readonly historyCut: boolean;
  readonly edits: readonly PolicyEdit[];
  readonly allocation: BudgetAllocation | null;
  readonly calibration: Calibration | null;
}

/**
 * The policy proposal learned from the ledgers and the history: override learning first (a
 * person's decision to let changes through weighs most), then the budget from the team's costs
 * and the calibrated pricing weights. Two edits of one setting never both stand: the first wins.
 */
export function learnProposal(input: LearnInput): LearnProposal {
  const { policy, windowDays: days } = input;
  const checks = checksInWindow(input.lines, input.now, days);
  const overrides = overrideEdits(checks, policy, days);
  const budget = budgetAllocation(checks, policy);
  const fit = calibrate(checks, input.commits, input.lines, policy);
  const taken = new Set<string>();
  const edits = [...overrides, ...budget.edits, ...fit.edits].filter((edit) => {
    const key = edit.path.join('.');
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  });
  return {
    windowDays: days,
    checks: checks.length,
    commits: input.commits.length,
    historyCut: input.historyCut,
    edits,
    allocation: budget.allocation,
    calibration: fit.calibration,
  };
}
