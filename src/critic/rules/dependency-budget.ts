import { compareStrings } from '../../analysis/graph/module-graph.js';
import { budgetFinding } from '../finding-of.js';
import type { ChangeRuleContext, Rule } from '../rule.js';
import { counted, listed } from '../wording.js';

/**
 * A change that adds more direct dependencies than `budgets.new_dependencies`. Only a change
 * can tell (RuleContext.change); a whole-repository check has nothing to report. A name added
 * to two manifests counts once. One finding for the repository: no location, symbol
 * `repository`, measured the number added; the message lists them.
 */
export const dependencyBudget: Rule<ChangeRuleContext> = {
  id: 'dependency_budget',
  description: 'A change adds more direct dependencies than budgets.new_dependencies.',
  check({ policy, change }) {
    if (change === undefined) return [];
    const limit = policy.budgets.new_dependencies;
    const added = [...new Set(change.addedDependencies)].sort(compareStrings);
    if (added.length <= limit) return [];
    const message = `the change adds ${counted(added.length, 'direct dependency', 'direct dependencies')} (${listed(added, 10)}); the budget is ${limit} (budgets.new_dependencies)`;
    return [budgetFinding('dependency_budget', message, added.length, limit)];
  },
};
