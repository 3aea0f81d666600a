import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  aureus,
  commit,
  hookLineFor,
  indexDigest,
  ledgerRecords,
  makeNodeRepo,
  type NodeRepo,
  OVER_BUDGET,
  SMALL_CHANGE,
  settleIndex,
  useHookTestEnvironment,
  worktreeListing,
} from './hook-fixture.js';

describe('aureus hook pre-commit, installed with husky, under a real git commit', () => {
  let repo: NodeRepo;
  useHookTestEnvironment();
  beforeEach(async () => {
    repo = await makeNodeRepo('pre-commit');
    expect(aureus(repo.dir, ['hooks', 'install']).code).toBe(0);
    repo.commit('install the hooks');
  });
  afterEach(() => repo.remove());

  const head = () => repo.git('rev-parse', 'HEAD');

  it('installs husky: devDependency, prepare, core.hooksPath and .husky/pre-commit', () => {
    const manifest = JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8'));
    expect(manifest.devDependencies.husky).toBe('^9.1.7');
    expect(manifest.scripts.prepare).toBe('husky');
    expect(repo.git('config', 'core.hooksPath')).toBe('.husky/_');
    expect(readFileSync(join(repo.dir, '.husky', 'pre-commit'), 'utf8')).toBe(
      `${hookLineFor('pre-commit')}\n`,
    );
  });

  it('refuses an over-budget commit with exit 1 and leaves the index and the working tree byte for byte', () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    // `git commit` itself rewrites the index (stat refresh, cache tree) before any hook runs;
    // one commit refused by a hook that only exits 1 lets it do that first, so what is compared
    // below is what AUREUS's hook does.
    settleIndex(repo);
    const [index, files, before] = [indexDigest(repo), worktreeListing(repo), head()];

    const result = commit(repo, ['-m', 'over budget']);

    expect(result.code).toBe(1);
    expect(result.output).toContain('AUREUS: BLOCK — 16 points, budget 10 (6 over)');
    expect(result.output).toContain('  cost: loc +11, files +5');
    expect(result.output).toContain('→ raise-budget (needs 16)');
    expect(result.output).toContain('AUREUS_OVERRIDE="<why>" git commit');
    expect(result.output).toContain('--no-verify');
    expect(result.output).toContain('the CI check is the gate');
    expect(indexDigest(repo)).toBe(index);
    expect(worktreeListing(repo)).toEqual(files);
    expect(head()).toBe(before);
    expect(repo.git('diff', '--cached', '--name-only')).toBe('src/over.ts');
    expect(ledgerRecords(repo).at(-1)).toMatchObject({
      source: 'staged',
      verdict: 'block',
      override: null,
    });
  });

  it('refuses a commit that adds a file that does not parse, naming its line and column', () => {
    // Within the budget (2 code lines and a file: 7 points of 10): only the syntax error blocks.
    repo.write('src/broken.ts', 'export const one = 1;\nexport const = ;\n');
    repo.git('add', 'src/broken.ts');
    const before = head();

    const result = commit(repo, ['-m', 'broken']);

    expect(result.code).toBe(1);
    expect(result.output).toContain('AUREUS: BLOCK — 7 points, budget 10 (3 left)');
    expect(result.output).toContain(
      'new unparsable_file: src/broken.ts does not parse as TypeScript (line 2, column 14: Variable declaration expected.)',
    );
    expect(head()).toBe(before);
  });

  it('wraps long lines at word boundaries and loses no word; a longer word stays whole on its line', () => {
    const path = `src/${'a-folder-with-a-long-name/'.repeat(3)}and-a-module-whose-name-is-wider-than-a-terminal-line.ts`;
    repo.write(path, 'export const one = 1;\nexport const = ;\n');
    repo.git('add', path);

    const result = commit(repo, ['-q', '-m', 'broken'], { COLUMNS: '80' });

    expect(result.code).toBe(1);
    const ours = result.output
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('husky - '));
    for (const line of ours) {
      // Wider than the terminal's 80 columns: only one word, alone after its indentation or bullet.
      if (Array.from(line).length > 80) expect(line.trim().replace(/^[-→] /, '')).not.toMatch(/\s/);
    }
    const words = ours.join(' ').split(/\s+/).join(' ');
    expect(words).toContain(
      `new unparsable_file: ${path} does not parse as TypeScript (line 2, column 14: Variable declaration expected.)`,
    );
    expect(words).toContain(
      'Hooks are advisory: git commit --no-verify (or HUSKY=0) skips them; the CI check is the gate. Full report: aureus check --staged',
    );
  });

  it('prints the blocked verdict in a dozen lines at most', () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const result = commit(repo, ['-q', '-m', 'over budget']);
    const ours = result.output.split('\n').filter((line) => !line.startsWith('husky - '));
    expect(ours.filter((line) => line !== '').length).toBeLessThanOrEqual(12);
  });

  it('lets the commit through with AUREUS_OVERRIDE and records who, why and how much', () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const before = head();

    const result = commit(repo, ['-q', '-m', 'hotfix'], { AUREUS_OVERRIDE: 'outage hotfix' });

    expect(result.code).toBe(0);
    expect(result.output).toContain(
      'Let through by AUREUS_OVERRIDE (Test Author <author@example.test>)',
    );
    expect(repo.git('rev-parse', 'HEAD~1')).toBe(before);
    expect(ledgerRecords(repo).at(-1)).toMatchObject({
      verdict: 'block',
      cost: { loc: 11, files: 5, total: 16 },
      budget: { block: 10, remaining: -6 },
      override: { by: 'Test Author <author@example.test>', reason: 'outage hotfix' },
    });
  });

  // git answers 1 for any failed hook; husky names the hook's own exit code.
  it('refuses an override without a reason (exit 2): who and why are both required', () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const result = commit(repo, ['-q', '-m', 'hotfix'], { AUREUS_OVERRIDE: '  ' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('husky - pre-commit script failed (code 2)');
    expect(result.output).toContain('AUREUS_OVERRIDE needs a reason.');
  });

  it('is bypassed by git commit --no-verify and by HUSKY=0: the hook is advisory', () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const entries = ledgerRecords(repo).length;
    expect(commit(repo, ['-q', '--no-verify', '-m', 'skip']).code).toBe(0);
    repo.write('src/over2.ts', OVER_BUDGET.replaceAll('v', 'w'));
    repo.git('add', 'src/over2.ts');
    expect(commit(repo, ['-q', '-m', 'skip'], { HUSKY: '0' }).code).toBe(0);
    // Nothing ran: the ledger has no record of these commits (THREATS.md row 20).
    expect(ledgerRecords(repo)).toHaveLength(entries);
  });

  it('passes a change within the budget and says so in one line', () => {
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    const result = commit(repo, ['-q', '-m', 'small']);
    expect(result.code).toBe(0);
    expect(result.output.trim()).toBe('AUREUS: PASS — 6 points, budget 10 (4 left)');
    expect(ledgerRecords(repo).at(-1)).toMatchObject({ verdict: 'pass', override: null });
  });

  it('exits 0 at once when nothing is staged, before loading any analysis', () => {
    const direct = aureus(repo.dir, ['hook', 'pre-commit']);
    expect(direct).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // No analysis ran: it would have written the facts cache and a ledger entry.
    expect(existsSync(join(repo.dir, '.aureus', 'local'))).toBe(false);
    expect(commit(repo, ['-q', '--allow-empty', '-m', 'empty']).code).toBe(0);
    expect(ledgerRecords(repo)).toEqual([]);
  });

  it('judges the commit of `git commit -a` (git’s temporary index), not the stale one', () => {
    repo.write('src/base.ts', `export const base = 0;\n${OVER_BUDGET}`);
    const result = commit(repo, ['-q', '-a', '-m', 'all']);
    expect(result.code).toBe(1);
    expect(result.output).toContain('AUREUS: BLOCK');
  });

  it('blocks a commit whose new policy does not validate, naming its file:line:col', () => {
    repo.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  change:\n    block: lots\n');
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', '.aureus/policy.yaml', 'src/small.ts');
    const before = head();
    const result = commit(repo, ['-q', '-m', 'break the policy']);
    expect(result.code).toBe(1);
    expect(result.output).toContain('AUREUS: BLOCK');
    expect(result.output).toContain('.aureus/policy.yaml:4:12: ');
    expect(head()).toBe(before);
  });

  it('fails closed on a broken base policy: exit 2, commit refused', () => {
    repo.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  change: lots\n');
    repo.commit('break the policy');
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    const result = commit(repo, ['-q', '-m', 'small']);
    expect(result.code).toBe(1);
    expect(result.output).toContain('husky - pre-commit script failed (code 2)');
    expect(result.output).toContain('.aureus/policy.yaml@');
  });

  it('never locks a repository whose committed policy is broken: names the way out, lets the repair through', () => {
    repo.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  change: lots\n');
    repo.commit('break the policy');
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    const refused = commit(repo, ['-q', '-m', 'small']);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(
      'To resolve, fix .aureus/policy.yaml and commit it: a commit whose .aureus/policy.yaml validates is judged by it.',
    );
    repo.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  change:\n    block: 400\n');
    repo.git('add', '.aureus/policy.yaml');
    const repaired = commit(repo, ['-q', '-m', 'repair the policy']);
    expect(repaired.code).toBe(0);
    expect(repo.git('log', '-1', '--format=%s')).toBe('repair the policy');
  });

  it('lets a commit that loosens the policy through with a warning: the pull request is the gate', () => {
    repo.write(
      '.aureus/policy.yaml',
      'version: 1\nbudgets:\n  change:\n    warn: 8\n    block: 1000\n',
    );
    repo.git('add', '.aureus/policy.yaml');
    const result = commit(repo, ['-q', '-m', 'loosen the budget']);
    expect(result.code).toBe(0);
    expect(result.output).toContain(
      'policy change loosens the gate (budgets.change.block: 10 → 1000)',
    );
    expect(result.output).toContain(
      'judged by the base policy here; on the pull request it blocks',
    );
    expect(repo.git('log', '-1', '--format=%s')).toBe('loosen the budget');
  });

  it('fails closed on a base policy with a tag or a broken glob, with its file:line:col', () => {
    const cases: [string, string][] = [
      ['version: !!int "1"\n', ':1:10: the tag !!int is not allowed'],
      [
        'version: 1\npaths:\n  tests: ["test/[a-"]\n',
        ':3:11: paths.tests[0] is not a valid glob: "test/[a-" opens a "[" that is never closed.',
      ],
    ];
    for (const [index, [policy, expected]] of cases.entries()) {
      repo.write('.aureus/policy.yaml', policy);
      const broken = repo.commit('break the policy');
      repo.write('src/small.ts', `export const one = ${index};\n`);
      repo.git('add', 'src/small.ts');
      const result = commit(repo, ['-q', '-m', 'small']);
      expect(result.code).toBe(1);
      expect(result.output).toContain('husky - pre-commit script failed (code 2)');
      expect(result.output).toContain(`.aureus/policy.yaml@${broken.slice(0, 12)}${expected}`);
    }
  });

  it('leaves a merge being concluded alone: its commits were checked on their own', () => {
    const main = repo.git('branch', '--show-current');
    repo.git('checkout', '-q', '-b', 'topic');
    repo.write('src/over.ts', OVER_BUDGET);
    repo.commit('topic work, checked on its own');
    repo.git('checkout', '-q', main);
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.commit('main work');
    repo.git('merge', '-q', '--no-ff', '--no-commit', 'topic');
    const result = commit(repo, ['-q', '-m', 'merge topic']);
    expect(result.code).toBe(0);
    expect(result.output).toContain('concluding a merge');
  });

  it('judges a commit on a repository with a branch named MERGE_HEAD: only a merge is left alone', () => {
    repo.git('branch', 'MERGE_HEAD');
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const result = commit(repo, ['-q', '-m', 'over budget']);
    expect(result.code).toBe(1);
    expect(result.output).not.toContain('concluding a merge');
    expect(result.output).toContain('AUREUS: BLOCK');
  });
});
