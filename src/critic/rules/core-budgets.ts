import type { Finding } from '../../model/finding.js';
import { coreModules, coreSize } from '../core-size.js';
import { budgetFinding } from '../finding-of.js';
import type { Rule, RuleContext } from '../rule.js';
import { listed } from '../wording.js';

/*
 * The core's three budgets, one rule each, over the one measure of src/critic/core-size.ts:
 * its files (`budgets.core_files`), its modules (`budgets.core_modules`) and its lines of code
 * (`budgets.core_loc`).
 */

/**
 * The core holds more files than `budgets.core_files`: files under `paths.core` that are
 * neither tests nor generated (coreFiles). One finding for the repository: no location,
 * symbol `repository`, measured the number of files.
 */
export const fileBudget: Rule = {
  id: 'file_budget',
  description: 'The core holds more files than budgets.core_files.',
  check(context) {
    const limit = context.policy.budgets.core_files;
    const { files } = coreSize(context);
    if (files <= limit) return [];
    const message = `the core holds ${files} files; the budget is ${limit} (budgets.core_files)`;
    return [budgetFinding('file_budget', message, files, limit)];
  },
};

/**
 * The core holds more policy modules than `budgets.core_modules`. Modules are those of
 * src/analysis/graph/policy-modules.ts that hold at least one core file (coreModules: a folder
 * of only tests or generated code does not count). One finding for the repository: no
 * location, symbol `repository`, measured the number of modules.
 */
export const moduleBudget: Rule = {
  id: 'module_budget',
  description: 'The core holds more modules than budgets.core_modules.',
  check(context) {
    const limit = context.policy.budgets.core_modules;
    const modules = coreModules(context);
    if (modules.length <= limit) return [];
    const message = `the core holds ${modules.length} modules (${listed(modules, 10)}); the budget is ${limit} (budgets.core_modules)`;
    return [budgetFinding('module_budget', message, modules.length, limit)];
  },
};

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
