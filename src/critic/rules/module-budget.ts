import { coreModules } from '../core-size.js';
import { budgetFinding } from '../finding-of.js';
import type { Rule } from '../rule.js';
import { listed } from '../wording.js';

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
