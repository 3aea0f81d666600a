import { describe, expect, it } from '@jest/globals';
import { lockfile, packageJson } from './npm-fixtures.js';
import { policyFrom, priceOf, tsLines } from './pricing-support.js';

const CHANGE = [
  { path: 'src/old.ts', base: tsLines(4) },
  {
    path: 'src/new.ts',
    head: `import { spawn } from 'child_process';\nexport interface A { run(): void }\n${tsLines(8)}`,
  },
  { path: 'test/new.test.ts', head: tsLines(8) },
  { path: 'package.json', base: packageJson({}), head: packageJson({ dependencies: { a: '1' } }) },
  {
    path: 'package-lock.json',
    base: lockfile({}),
    head: lockfile({
      'node_modules/a': { dependencies: { b: '1' } },
      'node_modules/b': { hasInstallScript: true },
    }),
  },
];

describe('policy weights', () => {
  it('prices with the defaults', async () => {
    const priced = await priceOf(CHANGE, { headModules: ['src'] });
    expect(priced.cost).toEqual({
      // 10 + 2 (8 test lines × 0.25) + 3 (package.json) − 4
      loc: 11,
      dependencies: 30,
      abstractions: 25,
      security: 30,
      files: 10,
      modules: 20,
      tool: 0,
      total: 126,
    });
  });

  it('changes the price when the policy changes its weights', async () => {
    const policy = policyFrom(
      [
        'pricing:',
        '  loc_added: 2',
        '  loc_deleted_credit: 0.5',
        '  dependency: { per_kloc: 3, per_transitive_package: 1, install_script: 7 }',
        '  abstraction: 40',
        '  security: { process_spawn: 12 }',
        '  file: 1',
        '  module: 3',
        '  test_code_weight: 0.1',
        '',
      ].join('\n'),
    );
    const priced = await priceOf(CHANGE, { policy, headModules: ['src'] });
    expect(priced.cost).toEqual({
      // 20 + 1.6 (16 × 0.1) + 6 − 2
      loc: 25.6,
      dependencies: 9, // 2 packages × 1 + 7 (install script); own size unknown: 0 × per_kloc
      abstractions: 40,
      security: 12,
      files: 2,
      modules: 3,
      tool: 0,
      total: 91.6,
    });
  });
});
