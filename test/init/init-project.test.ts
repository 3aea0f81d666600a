import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { applyInit, planInit } from '../../src/init/init-project.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** Two weeks after the fixtures' commits (isolateGit dates them 2024-01-01): a young project. */
const SOON_AFTER = new Date('2024-01-15T00:00:00Z');
const POLICY = '.aureus/policy.yaml';

/** A small TypeScript CLI: package.json with a bin and jest, three modules importing downwards. */
function writeGreenfield(repo: Repo): void {
  repo.write(
    'package.json',
    `${JSON.stringify(
      {
        name: 'greenfield-cli',
        bin: { gf: 'dist/cli/main.js' },
        scripts: { test: 'jest' },
        dependencies: { commander: '^12.0.0' },
        devDependencies: { jest: '^29.0.0', typescript: '^5.0.0' },
      },
      null,
      2,
    )}\n`,
  );
  repo.write('package-lock.json', '{}\n');
  repo.write('src/model/item.ts', 'export interface Item {\n  readonly name: string;\n}\n');
  repo.write(
    'src/logic/count.ts',
    "import type { Item } from '../model/item.js';\nimport { label } from '../model/label.js';\n\nexport function count(items: readonly Item[]): string {\n  return label(items.length);\n}\n",
  );
  repo.write(
    'src/model/label.ts',
    "export function label(n: number): string {\n  return String(n).concat(' items');\n}\n",
  );
  repo.write(
    'src/cli/main.ts',
    "import { count } from '../logic/count.js';\n\nexport function main(): string {\n  return count([]);\n}\n",
  );
  repo.write('test/count.test.ts', "import { count } from '../src/logic/count.js';\ncount([]);\n");
  repo.write('README.md', '# greenfield\n');
}

/** A class of `methods` three-line methods: a god class past the design's 500 lines. */
function godClass(name: string, methods: number): string {
  const body = Array.from(
    { length: methods },
    (_, i) => `  m${i}(): number {\n    return ${i};\n  }`,
  ).join('\n');
  return `export class ${name} {\n${body}\n}\n`;
}

describe('aureus init', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('init');
  });
  afterEach(() => repo.remove());

  const settings = { now: SOON_AFTER, cwd: '/', toolVersion: '0.0.0-test' };
  const init = (...args: string[]) => runCliInProcess(['init', ...args], repo.dir);

  it('gives a greenfield repository the design’s budgets, with a reason beside every value', async () => {
    writeGreenfield(repo);
    repo.commit('start');
    const plan = await planInit(repo.dir, { ...settings, cwd: repo.dir });
    expect(plan.intelligence.type.value).toBe('cli');
    expect(plan.intelligence.maturity.value).toBe('greenfield');
    expect(plan.intelligence.frameworks.value).toEqual(['commander']);
    expect(plan.intelligence.testCommand.value).toEqual(['npm', 'test']);
    expect(plan.intelligence.layering.value.layers).toEqual([
      ['src/model'],
      ['src/logic'],
      ['src/cli'],
    ]);
    expect(plan.existing).toEqual({ kind: 'none' });
    const parsed = parsePolicy(plan.text, POLICY);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.policy.budgets).toEqual(defaultPolicy().budgets);
    expect(parsed.policy.forbidden_patterns).toEqual(defaultPolicy().forbidden_patterns);
    expect(plan.text).toMatchSnapshot();

    expect(await applyInit(repo.dir, plan, settings)).toEqual({ kind: 'not-needed' });
    expect(readFileSync(join(repo.dir, POLICY), 'utf8')).toBe(plan.text);
    expect(existsSync(join(repo.dir, '.aureus/baseline.json'))).toBe(false);
    // The same survey again finds its own policy identical.
    expect((await planInit(repo.dir, { ...settings, cwd: repo.dir })).existing).toEqual({
      kind: 'identical',
    });
  });

  it('writes the layering as module rules: green today, and an import upwards blocks at its line', async () => {
    writeGreenfield(repo);
    repo.commit('start');
    expect((await init('--yes')).code).toBe(0);
    const today = await runCliInProcess(['check', '--all', '--format', 'json'], repo.dir);
    expect(JSON.parse(today.stdout).verdict).toBe('pass');
    expect(today.code).toBe(0);

    repo.write(
      'src/model/label.ts',
      "import { main } from '../cli/main.js';\n\nexport function label(n: number): string {\n  return main().concat(String(n));\n}\n",
    );
    const upwards = await runCliInProcess(['check', '--all', '--format', 'json'], repo.dir);
    expect(JSON.parse(upwards.stdout).findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'forbidden_dependency',
        blocking: true,
        symbol: 'model → cli',
        location: { path: 'src/model/label.ts', startLine: 1, endLine: 1 },
      }),
    );
    expect(upwards.code).toBe(1);
  });

  it('neither shows nor writes a policy through a committed .aureus link', async () => {
    const outside = await makeRepo('init-outside-policy');
    try {
      writeFileSync(join(outside.dir, 'policy.yaml'), 'version: 1 # outside secret\n');
      symlinkSync(outside.dir, join(repo.dir, '.aureus'));
      for (const args of [['--dry-run'], ['--yes', '--without-hooks']]) {
        const run = await init(...args);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(
          '.aureus is a symbolic link; AUREUS neither reads nor writes through links.',
        );
        expect(run.stdout).not.toContain('outside secret');
      }
      expect(readFileSync(join(outside.dir, 'policy.yaml'), 'utf8')).toBe(
        'version: 1 # outside secret\n',
      );
    } finally {
      await outside.remove();
    }
  });

  it('--dry-run prints the policy and the reasoning and writes nothing', async () => {
    writeGreenfield(repo);
    repo.commit('start');
    const run = await init('--dry-run');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('Pre-commit check installed');
    expect(run.stdout).toMatch(/^greenfield-cli: cli, /);
    expect(run.stdout).toContain('Why the policy says what it says');
    expect(run.stdout).toContain('--dry-run: nothing written. .aureus/policy.yaml would be:');
    expect(run.stdout).toContain('\nversion: 1\n');
    expect(existsSync(join(repo.dir, POLICY))).toBe(false);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('without --yes and without a terminal, previews, writes nothing and exits 2 naming --yes', async () => {
    writeGreenfield(repo);
    repo.commit('start');
    const run = await init();
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('.aureus/policy.yaml would be:');
    expect(run.stderr).toContain('nothing written');
    expect(run.stderr).toContain('rerun with --yes');
    expect(existsSync(join(repo.dir, POLICY))).toBe(false);
  });

  it('never overwrites a policy: an edited one gets a diff and stays byte for byte', async () => {
    writeGreenfield(repo);
    repo.commit('start');
    const written = await init('--yes');
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('Wrote .aureus/policy.yaml.');
    expect(written.stdout).toContain('Pre-commit check installed');
    expect(readFileSync(join(repo.dir, '.husky', 'pre-commit'), 'utf8')).toContain(
      'aureus hook pre-commit',
    );
    const generated = readFileSync(join(repo.dir, POLICY), 'utf8');
    expect(parsePolicy(generated, POLICY).ok).toBe(true);

    const again = await init('--yes');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('.aureus/policy.yaml already holds exactly this policy');

    const edited = generated.replace(/core_files: \d+[^\n]*/, 'core_files: 40 # we need more');
    repo.write(POLICY, edited);
    const rerun = await init('--yes');
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('exists and is left as it is');
    expect(rerun.stdout).toContain('--- .aureus/policy.yaml (yours)');
    expect(rerun.stdout).toContain('-  core_files: 40 # we need more');
    expect(rerun.stdout).toMatch(/\n\+ {2}core_files: \d+ # /);
    expect(readFileSync(join(repo.dir, POLICY), 'utf8')).toBe(edited);

    const preview = await init('--dry-run');
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain('--dry-run: nothing written. .aureus/policy.yaml would be:');
    expect(preview.stdout).toContain('--- .aureus/policy.yaml (yours)');
    expect(readFileSync(join(repo.dir, POLICY), 'utf8')).toBe(edited);
  });

  it('gives a legacy repository budgets above its core and a baseline, so only new findings block', async () => {
    // isolateGit dates the commits 2024-01-01: more than a year before the real clock.
    repo.write('package.json', '{ "name": "old-lib", "main": "src/index.js" }\n');
    repo.write('src/engine/engine.ts', godClass('Engine', 180));
    repo.write('src/index.ts', "export { Engine } from './engine/engine.js';\n");
    repo.commit('old code');
    const run = await init('--yes');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^old-lib: library, legacy/);
    expect(run.stdout).toContain('Recorded 1 known findings in .aureus/baseline.json');
    const baseline = JSON.parse(readFileSync(join(repo.dir, '.aureus/baseline.json'), 'utf8'));
    expect(baseline.findings).toEqual([expect.objectContaining({ ruleId: 'god_class' })]);

    const check = await runCliInProcess(['check', '--all'], repo.dir);
    expect(check.code).toBe(0);
    repo.write('src/engine/other.ts', godClass('Other', 180));
    repo.git('add', 'src/engine/other.ts');
    const grown = await runCliInProcess(['check', '--all'], repo.dir);
    expect(grown.code).toBe(1);
  });

  it('gives a legacy god class a growth tolerance, with its reason, so a bug fix in it passes', async () => {
    repo.write('package.json', '{ "name": "old-lib", "main": "src/index.js" }\n');
    repo.write('src/engine/engine.ts', godClass('Engine', 180));
    repo.write('src/index.ts', "export { Engine } from './engine/engine.js';\n");
    repo.commit('old code');
    expect((await init('--yes')).code).toBe(0);
    const text = readFileSync(join(repo.dir, POLICY), 'utf8');
    expect(text).toMatch(
      /^ {2}god_class:\n {4}severity: error # 1 violation today, e\.g\. src\/engine\/engine\.ts: the baseline holds it, new ones block\n {4}growth_tolerance: 20 # the baseline records 1 class past the limit \(the largest 542 lines\): a bug fix in one is reported but passes up to 20 lines over its recorded size; counted from the baseline, so small changes use it up and real growth blocks\n/m,
    );
    const parsed = parsePolicy(text, POLICY);
    expect(parsed.ok && parsed.policy.forbidden_patterns.god_class.growth_tolerance).toBe(20);
    repo.commit('adopt AUREUS');

    repo.write('src/engine/engine.ts', godClass('Engine', 181));
    repo.commit('fix a bug in Engine');
    const fix = await runCliInProcess(['check', '--commit', 'HEAD', '--format', 'json'], repo.dir);
    expect(JSON.parse(fix.stdout).findings).toContainEqual(
      expect.objectContaining({ ruleId: 'god_class', status: 'worsened', blocking: false }),
    );
    expect(fix.code).toBe(0);
  });

  it('works in a repository without commits or code: the design defaults', async () => {
    const plan = await planInit(repo.dir, { ...settings, cwd: repo.dir });
    expect(plan.intelligence.maturity.reason).toContain('no commits yet');
    expect(plan.intelligence.type.value).toBe('unknown');
    const parsed = parsePolicy(plan.text, POLICY);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.policy.budgets).toEqual(defaultPolicy().budgets);
  });
});
