import { coreSize } from '../core-size.js';
import { budgetFinding } from '../finding-of.js';
import type { Rule } from '../rule.js';

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
