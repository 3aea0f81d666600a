import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { RULES, runCritic, withChangeFindings } from '../../src/critic/run-critic.js';
import { briefly, classOfLoc, contextOf } from './critic-support.js';

/** Something for most rules to find, in two files and at repository level. */
const SOURCES = {
  'src/core/a.ts': [
    "import { b } from './b.js';",
    'export let hits = 0;',
    classOfLoc('Big', 7, ''),
    'export const a = () => eval(String(b));',
    'export const load = (name: string) => import(name);',
    '',
  ].join('\n'),
  'src/core/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
};
const POLICY = [
  'budgets:',
  '  core_files: 1',
  'paths:',
  '  core: [src/core/**]',
  'forbidden_patterns:',
  '  god_class:',
  '    max_loc: 6',
  '',
].join('\n');

describe('runCritic', () => {
  it('runs every rule not off, sorted by path, line, rule (repository findings first)', async () => {
    const findings = runCritic(await contextOf(SOURCES, POLICY));
    expect(briefly(findings)).toEqual([
      { ruleId: 'file_budget', symbol: 'repository', at: null },
      {
        ruleId: 'circular_dependency',
        symbol: 'src/core/a.ts\nsrc/core/b.ts',
        at: 'src/core/a.ts:1',
      },
      { ruleId: 'global_mutable_state', symbol: 'hits', at: 'src/core/a.ts:2' },
      { ruleId: 'god_class', symbol: 'Big', at: 'src/core/a.ts:3' },
      { ruleId: 'reflection', symbol: 'eval:1', at: 'src/core/a.ts:11' },
      { ruleId: 'plugin_registry', symbol: 'dynamic-import:1', at: 'src/core/a.ts:12' },
      { ruleId: 'reflection', symbol: 'dynamic-import:1', at: 'src/core/a.ts:12' },
    ]);
    expect(findings.map((finding) => finding.severity)).toEqual([
      'error',
      'error',
      'warn',
      'error',
      'warn',
      'error',
      'warn',
    ]);
  });

  it('runs nothing for a rule set to off, and nothing at all when every rule is off', async () => {
    const godClassOff = `${POLICY.replace('    max_loc: 6\n', '    max_loc: 6\n    severity: off\n')}`;
    const findings = runCritic(await contextOf(SOURCES, godClassOff));
    expect(findings.map((finding) => finding.ruleId)).not.toContain('god_class');
    expect(findings).toHaveLength(6);

    const allOff = RULES.map((rule) => `  ${rule.id}:\n    severity: off\n`).join('');
    expect(runCritic(await contextOf(SOURCES, `forbidden_patterns:\n${allOff}`))).toEqual([]);
  });

  it('gives every finding of a rule set to warn the severity warn', async () => {
    const warned = POLICY.replace('    max_loc: 6\n', '    max_loc: 6\n    severity: warn\n');
    const godClass = runCritic(await contextOf(SOURCES, warned)).find(
      (finding) => finding.ruleId === 'god_class',
    );
    expect(godClass).toMatchObject({ severity: 'warn', symbol: 'Big', measured: 7 });
  });

  it('reads a snapshot again with a change as a first reading with that change does', async () => {
    const context = await contextOf(SOURCES, POLICY);
    const change = {
      addedDependencies: ['left-pad', 'is-odd', 'is-even', 'lodash', 'chalk', 'ms'],
    };
    const first = runCritic(context);
    const withChange = runCritic({ ...context, change });
    expect(withChange).toEqual(runCritic({ ...(await contextOf(SOURCES, POLICY)), change }));
    expect(withChange.filter((finding) => finding.ruleId !== 'dependency_budget')).toEqual(first);
    expect(withChange.some((finding) => finding.ruleId === 'dependency_budget')).toBe(true);
    expect(runCritic(context)).toEqual(first);
  });

  it('gives from the snapshot findings kept of a run without a change what a run with it gives', async () => {
    const context = await contextOf(SOURCES, POLICY);
    const change = {
      addedDependencies: ['left-pad', 'is-odd', 'is-even', 'lodash', 'chalk', 'ms'],
    };
    // A kept side holds the findings of a run without a change (base-side.ts), never the project.
    const kept = structuredClone(runCritic(await contextOf(SOURCES, POLICY)));
    const joined = withChangeFindings(kept, context.policy, change);
    expect(joined).toEqual(runCritic({ ...context, change }));
    expect(joined.some((finding) => finding.ruleId === 'dependency_budget')).toBe(true);
    expect(withChangeFindings(kept, context.policy, undefined)).toEqual(runCritic(context));
  });

  it('gives the same list whatever order the files were read in', async () => {
    const reversed = Object.fromEntries(Object.entries(SOURCES).reverse());
    const context = await contextOf(reversed, POLICY);
    expect(runCritic(context)).toEqual(runCritic(await contextOf(SOURCES, POLICY)));
  });
});

describe('the registry', () => {
  it('holds one rule per forbidden pattern, in the schema’s order, with a description', () => {
    const schema: unknown = JSON.parse(readFileSync('schemas/policy.schema.json', 'utf8'));
    expect(RULES.map((rule) => rule.id)).toEqual(forbiddenPatternIds(schema));
    for (const rule of RULES) expect(rule.description).toMatch(/^[A-Z].+\.$/);
  });
});

function forbiddenPatternIds(schema: unknown): string[] {
  const patterns = child(child(child(schema, 'properties'), 'forbidden_patterns'), 'properties');
  return isRecord(patterns) ? Object.keys(patterns) : [];
}

function child(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
