import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { renderPolicy } from '../../src/cli/commands/policy-command.js';
import { decodePolicyText } from '../../src/memory/decode-policy-text.js';
import { CURRENT_POLICY_VERSION } from '../../src/model/policy.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { globMatcher } from '../../src/policy/glob-matcher.js';
import { migratePolicy, type PolicyMigration, parsePolicy } from '../../src/policy/parse-policy.js';

const FILE = '.aureus/policy.yaml';

describe('the built-in default policy', () => {
  it('holds the figures of the design', () => {
    const policy = defaultPolicy();
    expect(policy.budgets.core_modules).toBe(6);
    expect(policy.budgets.core_files).toBe(25);
    expect(policy.budgets.core_loc).toEqual({ target: 4000, hard: 8000 });
    expect(policy.budgets.change).toEqual({ warn: 400, block: 500 });
    expect(policy.simplification.triggers).toEqual({
      added_loc: 100,
      new_abstraction: true,
      loc_budget_ratio: 0.9,
    });
    expect(policy.simplification.target_reduction).toBe(0.2);
    expect(policy.forbidden_patterns.oversized_adapter.max_loc).toBe(200);
    expect(policy.forbidden_patterns.god_class.max_loc).toBe(500);
    expect(policy.forbidden_patterns.deep_inheritance.max_depth).toBe(2);
    expect(policy.forbidden_patterns.premature_abstraction.min_implementations).toBe(2);
    expect(policy.forbidden_patterns.event_bus.min_subscribers).toBe(3);
    expect(policy.pricing.abstraction).toBe(25);
    expect(policy.pricing.dependency.per_transitive_package).toBe(5);
    expect(policy.integrations.incomplete_conclusion).toBe('failure');
  });

  it('is a fresh object each time, so one caller cannot change another caller’s policy', () => {
    const first = defaultPolicy();
    first.paths.core.push('lib/**');
    expect(defaultPolicy().paths.core).toEqual(['src/**']);
  });
});

describe('parsePolicy', () => {
  it('fills every key a file leaves out with its default and keeps what it sets', () => {
    const result = parsePolicy(
      'version: 1\nbudgets:\n  core_files: 40\npaths:\n  core: [lib/**]\n',
      FILE,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.policy.budgets.core_files).toBe(40);
    expect(result.policy.budgets.core_modules).toBe(6);
    expect(result.policy.paths.core).toEqual(['lib/**']);
    expect(result.policy.forbidden_patterns.god_class).toEqual({
      severity: 'error',
      max_loc: 500,
      growth_tolerance: 0,
    });
  });

  it('accepts a UTF-8 byte-order mark, comments and bounded aliases', () => {
    const bytes = new TextEncoder().encode(
      '\ufeff# ours\nversion: 1\npaths:\n  core: &core [src/**]\n  tests: *core\n',
    );
    const decoded = decodePolicyText(bytes, FILE);
    if (!decoded.ok) throw new Error(decoded.problem.message);
    const result = parsePolicy(decoded.text, FILE);
    expect(result.ok && result.policy.paths.tests).toEqual(['src/**']);
  });

  it('reports every problem of a file at once, in file order', () => {
    const result = parsePolicy(
      'version: 1\nbudgets:\n  core_files: -3\n  core_modlues: 2\npricing:\n  abstraction: lots\n',
      FILE,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => `${problem.line}:${problem.column}`)).toEqual([
      '3:15',
      '4:3',
      '6:16',
    ]);
  });

  it('never echoes a long hostile value in full', () => {
    const result = parsePolicy(`version: 1\nproject:\n  type: "${'x'.repeat(5000)}"\n`, FILE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.message.length).toBeLessThan(300);
  });

  it('prints the effective policy as YAML that parses back to the same policy', () => {
    const policy = defaultPolicy();
    const yaml = renderPolicy(policy, 'yaml');
    expect(yaml).toContain('# Most source files the core may hold.\n  core_files: 25\n');
    const reparsed = parsePolicy(yaml, FILE);
    expect(reparsed.ok && reparsed.policy).toEqual(policy);
    expect(parse(renderPolicy(policy, 'json'))).toEqual(policy);
  });

  it('prints text YAML 1.1 would read otherwise in quotes, so it parses back as text', () => {
    const defaults = defaultPolicy();
    const stack = { ...defaults.project.stack, frameworks: ['on', '0o17', '1:30'] };
    const policy = { ...defaults, project: { ...defaults.project, name: 'no', stack } };
    const text = renderPolicy(policy, 'yaml');
    expect(text).toContain('name: "no"');
    expect(text).toContain('- "0o17"');
    const reparsed = parsePolicy(text, FILE);
    expect(reparsed.ok && reparsed.policy).toEqual(policy);
  });

  it('reads a plain value as YAML 1.2 does where its YAML 1.1 reading would not fit the setting', () => {
    const result = parsePolicy(
      [
        'version: 1',
        'project:',
        '  name: no',
        '  stack:',
        '    frameworks: [on, 2024-01-31]',
        'budgets:',
        '  core_files: 0o17',
        'forbidden_patterns:',
        '  god_class:',
        '    severity: off',
        '',
      ].join('\n'),
      FILE,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.policy.project.name).toBe('no');
    expect(result.policy.project.stack.frameworks).toEqual(['on', '2024-01-31']);
    expect(result.policy.budgets.core_files).toBe(15);
    expect(result.policy.forbidden_patterns.god_class.severity).toBe('off');
  });

  it('keeps every valid glob form and the values both YAML versions read alike', () => {
    const result = parsePolicy(
      [
        'version: 1',
        'project:',
        '  name: "yes"',
        'budgets:',
        '  core_files: 0x1F',
        '  change: { warn: 1e2, block: 2.5e2 }',
        'simplification:',
        '  enabled: false',
        'paths:',
        '  core: ["src/[a-z]*/**", "{lib,pkg}/**", "x/[[]y[]]/**", "src/!(legacy)/**", "**/*.@(ts|tsx)"]',
        '  ignore: ["**/[]]odd/**", "gen/{a..c}/**"]',
        '',
      ].join('\n'),
      FILE,
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.policy.project.name).toBe('yes');
    expect(result.policy.budgets.core_files).toBe(31);
    expect(result.policy.budgets.change).toEqual({ warn: 100, block: 250 });
    expect(result.policy.simplification.enabled).toBe(false);
    const samples: Record<string, [string, string]> = {
      'src/[a-z]*/**': ['src/ab/x.ts', 'src/Ab/x.ts'],
      '{lib,pkg}/**': ['pkg/y.ts', 'src/y.ts'],
      'x/[[]y[]]/**': ['x/[y]/z.ts', 'x/y/z.ts'],
      'src/!(legacy)/**': ['src/new/a.ts', 'src/legacy/a.ts'],
      '**/*.@(ts|tsx)': ['a/b.tsx', 'a/b.js'],
      '**/[]]odd/**': ['a/]odd/b.ts', 'a/odd/b.ts'],
      'gen/{a..c}/**': ['gen/b/c.ts', 'gen/d/c.ts'],
    };
    const { core, ignore } = result.policy.paths;
    expect([...core, ...ignore].sort()).toEqual(Object.keys(samples).sort());
    for (const [glob, [matched, missed]] of Object.entries(samples)) {
      expect([glob, globMatcher([glob])(matched), globMatcher([glob])(missed)]).toEqual([
        glob,
        true,
        false,
      ]);
    }
  });
});

describe('policy format versions', () => {
  it('migrates an older document one version at a time up to the current one', () => {
    const migrations: Record<number, PolicyMigration> = {
      1: (document) => ({ ...document, renamed: document.old ?? null }),
      2: (document) => ({ ...document, twice: true }),
    };
    // The migration chain is exercised with versions that do not exist yet (the format starts at 1).
    const migrated = migratePolicy({ version: 1, old: 'value' }, 1, migrations, 3);
    expect(migrated).toEqual({ version: 3, old: 'value', renamed: 'value', twice: true });
  });

  it('refuses to guess when a step of the chain is missing', () => {
    expect(() => migratePolicy({ version: 1 }, 1, {}, 2)).toThrow(
      'no migration from policy version 1 to 2',
    );
  });

  it('reads the current version without migrating', () => {
    expect(CURRENT_POLICY_VERSION).toBe(1);
    expect(parsePolicy('version: 1\n', FILE).ok).toBe(true);
  });
});
