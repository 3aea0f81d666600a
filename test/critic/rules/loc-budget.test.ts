import { describe, expect, it } from '@jest/globals';
import { coreSize } from '../../../src/critic/core-size.js';
import { locBudget } from '../../../src/critic/rules/core-budgets.js';
import { runCritic } from '../../../src/critic/run-critic.js';
import { codeLines, contextOf } from '../critic-support.js';

const BUDGET = 'budgets:\n  core_loc:\n    target: 10\n    hard: 20\npaths:\n  core: [src/**]\n';

/** Core files holding `loc` code lines in all, plus a test and a generated file that do not count. */
function coreOf(loc: number): Record<string, string> {
  return {
    'src/a/one.ts': `// comments do not count\n${codeLines(loc - 1)}`,
    'src/b/two.ts': codeLines(1),
    'src/b/two.test.ts': codeLines(100),
    'src/b/api.generated.ts': `// @generated\n${codeLines(100)}`,
  };
}

describe('loc_budget', () => {
  it('reports a core over the hard limit at the policy severity', async () => {
    const context = await contextOf(coreOf(21), BUDGET);
    expect(locBudget.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'loc_budget',
        severity: 'error',
        message: 'the core holds 21 lines of code; its hard limit is 20 (budgets.core_loc.hard)',
        location: null,
        symbol: 'repository',
        measured: 21,
        limit: 20,
      }),
    ]);
  });

  it('warns, never blocks, past the target even when the policy says error', async () => {
    const context = await contextOf(coreOf(20), BUDGET);
    expect(context.policy.forbidden_patterns.loc_budget.severity).toBe('error');
    expect(runCritic(context).filter((finding) => finding.ruleId === 'loc_budget')).toEqual([
      expect.objectContaining({
        severity: 'warn',
        message: 'the core holds 20 lines of code; its target is 10 (budgets.core_loc.target)',
        measured: 20,
        limit: 10,
      }),
    ]);
  });

  it('says reflexion is due from 90 % of the target, as an advisory warning', async () => {
    const atTarget = runCritic(await contextOf(coreOf(10), BUDGET)).filter(
      (finding) => finding.ruleId === 'loc_budget',
    );
    expect(atTarget).toEqual([
      expect.objectContaining({
        severity: 'warn',
        message:
          'the core holds 10 lines of code, 100 % of its target 10: reflexion is due (simplification.triggers.loc_budget_ratio)',
        measured: 10,
        limit: 9,
      }),
    ]);
    expect(locBudget.check(await contextOf(coreOf(8), BUDGET))).toEqual([]);
    const disabled = `${BUDGET}simplification:\n  enabled: false\n`;
    expect(locBudget.check(await contextOf(coreOf(10), disabled))).toEqual([]);
  });

  it('measures the core with coreSize, which others reuse', async () => {
    expect(coreSize(await contextOf(coreOf(10), BUDGET))).toEqual({
      files: 2,
      loc: 10,
      modules: 2,
    });
  });
});
