import { describe, expect, it } from '@jest/globals';
import { fingerprintOf } from '../../../src/critic/finding-of.js';
import { dependencyBudget } from '../../../src/critic/rules/dependency-budget.js';
import { contextOf } from '../critic-support.js';

const SOURCES = { 'src/a.ts': 'export const a = 1;\n' };

describe('dependency_budget', () => {
  it('reports a change adding more direct dependencies than budgets.new_dependencies', async () => {
    const context = await contextOf(SOURCES, '', {
      addedDependencies: ['zod', 'axios', 'left-pad'],
    });
    expect(dependencyBudget.check(context)).toEqual([
      {
        ruleId: 'dependency_budget',
        severity: 'error',
        message:
          'the change adds 3 direct dependencies (axios, left-pad and zod); the budget is 2 (budgets.new_dependencies)',
        location: null,
        symbol: 'repository',
        fingerprint: fingerprintOf('dependency_budget', '', 'repository'),
        measured: 3,
        limit: 2,
        related: [],
      },
    ]);
  });

  it('passes the budget exactly, counts a name added twice once, and needs a change', async () => {
    const atBudget = await contextOf(SOURCES, '', {
      addedDependencies: ['zod', 'axios', 'zod'],
    });
    expect(dependencyBudget.check(atBudget)).toEqual([]);
    expect(dependencyBudget.check(await contextOf(SOURCES))).toEqual([]);
  });

  it('reads the budget from the policy', async () => {
    const context = await contextOf(SOURCES, 'budgets:\n  new_dependencies: 0\n', {
      addedDependencies: ['zod'],
    });
    expect(dependencyBudget.check(context).map((finding) => finding.message)).toEqual([
      'the change adds 1 direct dependency (zod); the budget is 0 (budgets.new_dependencies)',
    ]);
  });
});
