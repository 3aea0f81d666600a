import { describe, expect, it } from '@jest/globals';
import { moduleBudget } from '../../../src/critic/rules/core-budgets.js';
import { contextOf } from '../critic-support.js';

const BUDGET = 'budgets:\n  core_modules: 2\npaths:\n  core: [src/**]\n';

describe('module_budget', () => {
  it('reports a core with more modules than budgets.core_modules', async () => {
    const context = await contextOf(
      {
        'src/a/one.ts': 'export const one = 1;\n',
        'src/b/two.ts': 'export const two = 2;\n',
        'src/c/three.ts': 'export const three = 3;\n',
      },
      BUDGET,
    );
    expect(moduleBudget.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'module_budget',
        message:
          'the core holds 3 modules (src/a, src/b and src/c); the budget is 2 (budgets.core_modules)',
        location: null,
        symbol: 'repository',
        measured: 3,
        limit: 2,
      }),
    ]);
  });

  it('does not count a folder of tests or generated code as a module', async () => {
    const context = await contextOf(
      {
        'src/a/one.ts': 'export const one = 1;\n',
        'src/b/two.ts': 'export const two = 2;\n',
        'src/__tests__/one.test.ts': 'export const t = 1;\n',
        'src/generated/api.ts': '// @generated\nexport const api = 1;\n',
        'tools/x.ts': 'export const x = 1;\n',
      },
      BUDGET,
    );
    expect(context.project.modules.modules).toEqual([
      'src/__tests__',
      'src/a',
      'src/b',
      'src/generated',
    ]);
    expect(moduleBudget.check(context)).toEqual([]);
  });
});
