import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

let restoreGit: () => Promise<void>;
beforeAll(async () => {
  restoreGit = await isolateGit();
});
afterAll(() => restoreGit());

const POLICY = `# The team's policy: comments stay when learn proposes a change.
version: 1
forbidden_patterns:
  circular_dependency:
    severity: error # cycles block
`;

const REASONS = [
  'the parser and its printer call each other',
  'legacy sync module, untangled next sprint',
  'hotfix for the outage',
  'generated client',
  'migration in progress',
];

/**
 * Five changes blocked by circular_dependency, each let through with `check --override`: learn
 * proposes relaxing the rule, with who and why, and the proposal is a policy change.
 */
describe('aureus learn after five overrides of one rule', () => {
  let repo: Repo & { remove(): Promise<void> };

  beforeAll(async () => {
    repo = await makeRepo('learn-overrides');
    repo.write('.gitignore', '.aureus/local/\n');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.commit('policy');
    for (const [i, reason] of REASONS.entries()) {
      repo.write(`src/a${i}.ts`, `import { b } from './b${i}';\nexport const a = () => b();\n`);
      repo.write(`src/b${i}.ts`, `import { a } from './a${i}';\nexport const b = () => a();\n`);
      repo.commit(`cycle ${i}`);
      const blocked = await runCliInProcess(['check', '--commit', 'HEAD'], repo.dir);
      expect(blocked.stdout).toContain('new circular_dependency');
      expect(blocked.code).toBe(1);
      const run = await runCliInProcess(
        ['check', '--commit', 'HEAD', '--override', reason],
        repo.dir,
      );
      expect(run.code).toBe(0);
    }
  });
  afterAll(() => repo.remove());

  it('proposes error → warn with every override: who, why, which commit', async () => {
    const run = await runCliInProcess(['learn'], repo.dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^aureus learn: 5 checked changes in the last 90 days, 6 commits of history\.\n/,
    );
    expect(run.stdout).toContain(
      [
        '--- a/.aureus/policy.yaml',
        '+++ b/.aureus/policy.yaml',
        '@@ -2,4 +2,4 @@',
        ' version: 1',
        ' forbidden_patterns:',
        '   circular_dependency:',
        '-    severity: error # cycles block',
        '+    severity: warn # cycles block',
      ].join('\n'),
    );
    expect(run.stdout).toContain(
      '  forbidden_patterns.circular_dependency.severity: "error" → "warn" (relaxation)\n    circular_dependency blocked 5 changes that were let through by an override in 90 days (learning.relax_after_overrides: 5).\n',
    );
    const evidence = run.stdout.split('\n').filter((line) => line.includes('overridden by'));
    expect(evidence).toHaveLength(5);
    for (const [i, reason] of REASONS.entries())
      expect(evidence[i]).toMatch(
        new RegExp(
          `  [0-9a-f]{12}  \\d+ points  \\.aureus/local/ledger\\.jsonl#\\d+  overridden by Test Author <author@example\\.test>: ${reason}$`,
        ),
      );
    // The policy itself is never written.
    expect(readFileSync(join(repo.dir, '.aureus/policy.yaml'), 'utf8')).toBe(POLICY);
  });

  it('writes a proposal that validates and that aureus check flags as a loosening policy change', async () => {
    const out = await makeTempDir('learn-overrides-output');
    try {
      const file = join(out.path, 'policy.yaml');
      expect((await runCliInProcess(['learn', '--output', file], repo.dir)).code).toBe(0);
      expect((await runCliInProcess(['policy', 'validate', file], repo.dir)).code).toBe(0);
      repo.write('.aureus/policy.yaml', readFileSync(file));
      repo.commit('relax circular_dependency, as learned');
      const run = await runCliInProcess(
        ['check', '--commit', 'HEAD', '--format', 'json'],
        repo.dir,
      );
      const report = JSON.parse(run.stdout);
      expect(report.policy.changed).toBe(true);
      expect(report.policy.loosens).toEqual([
        'forbidden_patterns.circular_dependency.severity: "error" → "warn"',
      ]);
      expect(report.reasons.join('\n')).toContain('policy change loosens the gate');
    } finally {
      await out.remove();
    }
  });
});
