import { coreSize } from '../core-size.js';
import { findingOf } from '../finding-of.js';
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
    return [
      findingOf('file_budget', {
        message: `the core holds ${files} files; the budget is ${limit} (budgets.core_files)`,
        location: null,
        symbol: 'repository',
        measured: files,
        limit,
      }),
    ];
  },
};
