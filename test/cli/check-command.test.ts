import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** A class of `methods` one-line methods: small god classes under a small max_loc. */
function classWith(name: string, methods: number): string {
  const body = Array.from(
    { length: methods },
    (_, i) => `  m${i}(): number {\n    return ${i};\n  }`,
  ).join('\n');
  return `export class ${name} {\n${body}\n}\n`;
}

const POLICY = [
  'version: 1',
  'budgets:',
  '  change:',
  '    warn: 80',
  '    block: 100',
  'forbidden_patterns:',
  '  god_class:',
  '    severity: error',
  '    max_loc: 30',
  '',
].join('\n');

describe('aureus check', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('check');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/util.ts', 'export function twice(n: number): number {\n  return n * 2;\n}\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const check = (...args: string[]) => runCliInProcess(['check', ...args], repo.dir);

  it('suggests aureus simplify only for code a pass could patch: TypeScript, not Python', async () => {
    const lines = (line: (i: number) => string) =>
      Array.from({ length: 110 }, (_, i) => line(i)).join('');
    repo.write(
      'tools/values.py',
      lines((i) => `v${i} = ${i}\n`),
    );
    repo.commit('python');
    const python = JSON.parse((await check('--commit', 'HEAD', '--format', 'json')).stdout);
    expect(python.verdict).toBe('block');
    expect(python.alternatives.map((a: { kind: string }) => a.kind)).not.toContain('simplify');
    repo.write(
      'src/values.ts',
      lines((i) => `export const v${i} = ${i};\n`),
    );
    repo.commit('typescript');
    const typescript = JSON.parse((await check('--commit', 'HEAD', '--format', 'json')).stdout);
    expect(typescript.alternatives.map((a: { kind: string }) => a.kind)).toContain('simplify');
  });

  it('blocks a change that adds a god class, naming the rule, the file and the line', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    repo.commit('add Engine');
    const run = await check('--base', base, '--head', 'HEAD', '--format', 'json');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('block');
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'god_class',
        status: 'new',
        blocking: true,
        symbol: 'Engine',
        location: { path: 'src/engine.ts', startLine: 1, endLine: 38 },
      }),
    );
    const schema = JSON.parse(readFileSync('schemas/report.schema.json', 'utf8'));
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    expect(validate(report) ? [] : validate.errors).toEqual([]);
  });

  it('passes the same change where the class already existed: a baseline finding', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    const withEngine = repo.commit('Engine was already there');
    repo.write('src/util.ts', 'export function twice(n: number): number {\n  return n + n;\n}\n');
    repo.commit('touch util');
    const run = await check('--base', withEngine, '--head', 'HEAD', '--format', 'json');
    const report = JSON.parse(run.stdout);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'god_class', status: 'baseline', blocking: false }),
    );
    expect(report.verdict).toBe('pass');
    expect(run.code).toBe(0);
  });

  it('keeps the findings of a renamed file: a move alone is no new finding', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    repo.write('src/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    const before = repo.commit('Engine and a cycle');
    repo.git('mv', 'src/engine.ts', 'src/core-engine.ts');
    repo.git('mv', 'src/a.ts', 'src/first.ts');
    repo.write('src/b.ts', "import { a } from './first.js';\nexport const b = () => a;\n");
    repo.commit('move them');
    const run = await check('--base', before, '--head', 'HEAD', '--format', 'json');
    const report = JSON.parse(run.stdout);
    const statuses = report.findings.map((finding: { ruleId: string; symbol: string }) => [
      finding.ruleId,
      finding.symbol,
      'status' in finding ? finding.status : undefined,
    ]);
    expect(statuses).toEqual(
      expect.arrayContaining([
        ['god_class', 'Engine', 'baseline'],
        ['circular_dependency', 'src/b.ts\nsrc/first.ts', 'baseline'],
      ]),
    );
    expect(report.verdict).toBe('pass');
    expect(run.code).toBe(0);
  });

  it('tells a renamed file made worse as worsened, and a copy as new', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    const before = repo.commit('Engine');
    repo.git('mv', 'src/engine.ts', 'src/core-engine.ts');
    repo.write('src/core-engine.ts', classWith('Engine', 14));
    repo.write('src/copied-engine.ts', classWith('Engine', 12));
    repo.commit('move, grow and copy it');
    const run = await check('--base', before, '--head', 'HEAD', '--format', 'json');
    const report = JSON.parse(run.stdout);
    const godClasses = report.findings
      .filter((finding: { ruleId: string }) => finding.ruleId === 'god_class')
      .map((finding: { location: { path: string }; status: string }) => [
        finding.location.path,
        finding.status,
      ]);
    expect(godClasses).toEqual([
      ['src/copied-engine.ts', 'new'],
      ['src/core-engine.ts', 'worsened'],
    ]);
    expect(run.code).toBe(1);
  });

  it('judges a change that raises its own budget by the old budget', async () => {
    repo.write(
      '.aureus/policy.yaml',
      POLICY.replace('block: 100', 'block: 5000').replace('warn: 80', 'warn: 4000'),
    );
    repo.write(
      'src/big.ts',
      Array.from({ length: 150 }, (_, i) => `export const v${i} = ${i};`).join('\n'),
    );
    repo.commit('raise the budget and spend it');
    const run = await check('--base', base, '--head', 'HEAD', '--format', 'json');
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('block');
    expect(report.budget.block).toBe(100);
    expect(report.policy.changed).toBe(true);
    expect(report.policy.changes).toEqual([
      'budgets.change.block: 100 → 5000',
      'budgets.change.warn: 80 → 4000',
    ]);
    expect(run.code).toBe(1);
  });

  it('only warns about a change that loosens the policy: the pull request is where it blocks', async () => {
    repo.write('.aureus/policy.yaml', POLICY.replace('severity: error', 'severity: warn'));
    repo.commit('demote god classes');
    const run = await check('--base', base, '--head', 'HEAD', '--format', 'json');
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('warn');
    expect(report.policy.loosens).toEqual([
      'forbidden_patterns.god_class.severity: "error" → "warn"',
    ]);
    expect(run.code).toBe(0);
  });

  it('gives a pure deletion a negative cost, and records every check in the local ledger', async () => {
    repo.git('rm', '--quiet', 'src/util.ts');
    const run = await check('--staged', '--format', 'json');
    const report = JSON.parse(run.stdout);
    expect(report.cost.total).toBeLessThan(0);
    expect(report.verdict).toBe('pass');
    expect(run.code).toBe(0);
    const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(ledger).toHaveLength(1);
    expect(JSON.parse(ledger[0] ?? '{}').record).toMatchObject({
      kind: 'check',
      source: 'staged',
      verdict: 'pass',
    });
  });

  it('records the core size, findings by rule and the costliest files of a commit in the ledger', async () => {
    repo.write('src/big.ts', classWith('Big', 12));
    repo.write('src/small.ts', 'export const one = 1;\n');
    const head = repo.commit('two files');
    expect((await check('--commit', head, '--format', 'json')).code).toBe(1);
    const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
    const record = JSON.parse(ledger.trim().split('\n').at(-1) ?? '{}').record;
    expect(record.core).toMatchObject({ files: 3, modules: 1, locHard: 8000, filesBudget: 25 });
    expect(record.core.loc).toBeGreaterThan(40);
    expect(record.rules).toEqual([{ rule: 'god_class', new: 1, worsened: 0, baseline: 0 }]);
    expect(record.fileCosts.map((row: { path: string }) => row.path)).toEqual([
      'src/big.ts',
      'src/small.ts',
    ]);
    expect(record.fileCosts[0].points).toBeGreaterThan(record.fileCosts[1].points);
  });

  it('prices a call of the global fetch as network, not methods named fetch or replace', async () => {
    repo.write(
      'src/load.ts',
      'export const load = (query: { fetch(): string }) => query.fetch().replace("a", "b");\n',
    );
    repo.write('app/clean.py', 'import os\ndef clean(s):\n    return s.replace(os.sep, "/")\n');
    const methods = repo.commit('methods named like sensitive functions');
    const quiet = JSON.parse(
      (await check('--base', base, '--head', methods, '--format', 'json')).stdout,
    );
    expect(quiet.cost.security).toBe(0);
    repo.write('src/get.ts', 'export const get = (url: string) => fetch(url);\n');
    repo.commit('a real network call');
    const run = await check('--base', methods, '--head', 'HEAD', '--format', 'json');
    const report = JSON.parse(run.stdout);
    expect(report.cost.security).toBe(20);
    expect(report.costItems).toContainEqual(
      expect.objectContaining({ path: 'src/get.ts', detail: 'new network surface: calls fetch' }),
    );
  });

  it('prints a readable verdict by default and exits 2 on a broken base policy', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    // The working tree's changes are its tracked files' (as `git diff HEAD`): add the new file.
    repo.git('add', 'src/engine.ts');
    const text = await check();
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/BLOCK/);
    expect(text.stdout).toContain('src/engine.ts:1');
    repo.write('.aureus/policy.yaml', 'version: 1\nbudgts: {}\n');
    const broken = repo.commit('break the policy');
    repo.write('src/util.ts', 'export const x = 1;\n');
    const run = await check('--base', broken);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.aureus/policy.yaml@');
    expect(run.stderr).toContain(':2:1: unknown key "budgts" at the top level.');
  });

  it.each([
    ['a tagged version', 'version: !!int "1"\n', '1:10: the tag !!int is not allowed'],
    [
      'a number past 2^53',
      'version: 1\nbudgets:\n  core_files: 9007199254740993\n',
      '3:15: 9007199254740993 is too large to be read exactly',
    ],
    [
      'a broken glob',
      'version: 1\npaths:\n  core: ["src/[a-"]\n',
      '3:10: paths.core[0] is not a valid glob: "src/[a-" opens a "[" that is never closed.',
    ],
  ])(
    'exits 2 on a base policy with %s, naming the policy file, line and column',
    async (_case, policy, expected) => {
      repo.write('.aureus/policy.yaml', policy);
      const broken = repo.commit('break the policy');
      repo.write('src/util.ts', 'export const x = 1;\n');
      const run = await check('--base', broken);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`.aureus/policy.yaml@${broken.slice(0, 12)}:${expected}`);
    },
  );

  it('adopts a legacy repository: --all blocks today, passes after aureus baseline, blocks growth', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    repo.commit('a legacy god class');
    const before = await check('--all', '--format', 'json');
    expect(before.code).toBe(1);
    expect(JSON.parse(before.stdout).findings).toContainEqual(
      expect.objectContaining({ ruleId: 'god_class', status: 'new' }),
    );

    const recorded = await runCliInProcess(['baseline'], repo.dir);
    expect(recorded.stdout).toMatch(/^\.aureus\/baseline\.json: \d+ known findings recorded\./);
    const after = await check('--all', '--format', 'json');
    expect(JSON.parse(after.stdout)).toMatchObject({
      verdict: 'pass',
      change: { source: 'repository' },
    });
    expect(after.code).toBe(0);

    repo.write('src/engine.ts', classWith('Engine', 14));
    const grown = await check('--all', '--format', 'json');
    expect(JSON.parse(grown.stdout).findings).toContainEqual(
      expect.objectContaining({ ruleId: 'god_class', status: 'worsened', blocking: true }),
    );
    expect(grown.code).toBe(1);

    repo.write('.aureus/baseline.json', '{"version": 1, "findings": "all of them"}');
    const broken = await check('--all');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('.aureus/baseline.json is not a baseline AUREUS wrote.');
    expect((await check('--all', '--staged')).stderr).toContain(
      'choose one of --staged, --base/--head, --commit and --all.',
    );
  });

  it('lets a blocked change through with --override, recording who and why', async () => {
    repo.write('src/engine.ts', classWith('Engine', 12));
    repo.git('add', 'src/engine.ts');
    const empty = await check('--override', ' ');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--override needs a reason.');
    const run = await check('--override', 'hotfix for the outage');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/BLOCK/);
    expect(run.stderr).toContain('blocked change let through by override');
    const lines = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const last = JSON.parse(lines.at(-1) ?? '{}').record;
    expect(last).toMatchObject({
      verdict: 'block',
      override: { by: 'Test Author <author@example.test>', reason: 'hotfix for the outage' },
    });
    expect(last.reasons[0]).toContain('god_class');
  });
});
