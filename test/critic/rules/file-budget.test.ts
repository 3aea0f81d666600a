import { describe, expect, it } from '@jest/globals';
import { fileBudget } from '../../../src/critic/rules/core-budgets.js';
import { contextOf } from '../critic-support.js';

const BUDGET = 'budgets:\n  core_files: 2\npaths:\n  core: [src/core/**]\n';

describe('file_budget', () => {
  it('reports a core with more files than budgets.core_files', async () => {
    const context = await contextOf(
      {
        'src/core/a.ts': 'export const a = 1;\n',
        'src/core/b.ts': 'export const b = 1;\n',
        'src/core/c.py': 'c = 1\n',
      },
      BUDGET,
    );
    expect(fileBudget.check(context)).toEqual([
      expect.objectContaining({
        ruleId: 'file_budget',
        message: 'the core holds 3 files; the budget is 2 (budgets.core_files)',
        location: null,
        symbol: 'repository',
        measured: 3,
        limit: 2,
      }),
    ]);
  });

  it('counts neither tests, generated files nor files outside the core', async () => {
    const context = await contextOf(
      {
        'src/core/a.ts': 'export const a = 1;\n',
        'src/core/b.ts': 'export const b = 1;\n',
        'src/core/a.test.ts': 'export const t = 1;\n',
        'src/core/api.generated.ts': '// @generated\nexport const g = 1;\n',
        'src/cli/main.ts': 'export const m = 1;\n',
      },
      BUDGET,
    );
    expect(fileBudget.check(context)).toEqual([]);
  });
});
