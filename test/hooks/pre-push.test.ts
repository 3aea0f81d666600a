import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { parsePushLines } from '../../src/hooks/pushed-changes.js';
import { makeTempDir } from '../support/temp-dir.js';
import {
  aureus,
  commit,
  ledgerRecords,
  makeNodeRepo,
  type NodeRepo,
  OVER_BUDGET,
  run,
  SMALL_CHANGE,
  useHookTestEnvironment,
} from './hook-fixture.js';

describe('aureus hook pre-push, with a real bare remote', () => {
  let repo: NodeRepo;
  let remote: Awaited<ReturnType<typeof makeTempDir>>;
  useHookTestEnvironment();
  beforeEach(async () => {
    repo = await makeNodeRepo('pre-push');
    expect(aureus(repo.dir, ['hooks', 'install', 'pre-push']).code).toBe(0);
    repo.commit('install the hooks');
    remote = await makeTempDir('remote');
    run(remote.path, 'git', ['init', '-q', '--bare']);
    repo.git('remote', 'add', 'origin', remote.path);
    repo.git('push', '-q', '--no-verify', 'origin', 'main');
  });
  afterEach(async () => {
    await repo.remove();
    await remote.remove();
  });

  const push = (args: string[], env: Record<string, string> = {}) =>
    run(repo.dir, 'git', ['push', '-q', 'origin', ...args], env);
  const remoteHas = (branch: string) =>
    run(remote.path, 'git', ['rev-parse', '-q', '--verify', `refs/heads/${branch}`]).code === 0;
  // Commits skip the pre-commit hook: what is tested is the push.
  const commitFile = (path: string, text: string) => {
    repo.write(path, text);
    return repo.commit(`add ${path}`);
  };

  it('refuses a new branch over budget, compared with the remote’s default branch', () => {
    repo.git('remote', 'set-head', 'origin', 'main');
    repo.git('checkout', '-q', '-b', 'feature');
    commitFile('src/over.ts', OVER_BUDGET);
    const result = push(['feature']);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      'aureus: refs/heads/feature: from its merge base with origin/HEAD',
    );
    expect(result.output).toContain('AUREUS: BLOCK — 16 points, budget 10 (6 over)');
    expect(result.output).toContain('git push --no-verify');
    expect(remoteHas('feature')).toBe(false);
  });

  it('checks the whole pushed range: two small commits can add up to a block', () => {
    const first = commitFile('src/a.ts', SMALL_CHANGE);
    expect(push(['main']).code).toBe(0);
    commitFile('src/b.ts', 'export const b1 = 1;\nexport const b2 = 2;\n');
    commitFile('src/c.ts', 'export const c1 = 1;\nexport const c2 = 2;\n');
    const result = push(['main']);
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      `from its merge base with origin's main (${first.slice(0, 12)})`,
    );
    expect(result.output).toContain('AUREUS: BLOCK — 14 points');
    expect(ledgerRecords(repo).at(-1)).toMatchObject({ source: 'range', base: first });
  });

  it('passes a branch within budget, falling back to origin/main without origin/HEAD', () => {
    repo.git('checkout', '-q', '-b', 'small');
    commitFile('src/small.ts', SMALL_CHANGE);
    const result = push(['small']);
    expect(result.code).toBe(0);
    expect(result.output).toContain(
      'aureus: refs/heads/small: from its merge base with origin/main',
    );
    expect(result.output).toContain('AUREUS: PASS');
    expect(remoteHas('small')).toBe(true);
  });

  it('lets AUREUS_OVERRIDE through, recorded; --no-verify skips; deletions are not checked', () => {
    repo.git('checkout', '-q', '-b', 'feature');
    commitFile('src/over.ts', OVER_BUDGET);
    const overridden = push(['feature'], { AUREUS_OVERRIDE: 'demo tomorrow' });
    expect(overridden.code).toBe(0);
    expect(ledgerRecords(repo).at(-1)).toMatchObject({
      source: 'range',
      verdict: 'block',
      override: { by: 'Test Author <author@example.test>', reason: 'demo tomorrow' },
    });
    commitFile('src/over2.ts', OVER_BUDGET.replaceAll('v', 'w'));
    expect(push(['feature']).code).toBe(1);
    expect(push(['--no-verify', 'feature']).code).toBe(0);
    const entries = ledgerRecords(repo).length;
    expect(push(['--delete', 'feature']).code).toBe(0);
    expect(ledgerRecords(repo)).toHaveLength(entries);
    expect(remoteHas('feature')).toBe(false);
  });

  it('honours an override recorded when a commit was made', () => {
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    expect(commit(repo, ['-q', '-m', 'over'], { AUREUS_OVERRIDE: 'release today' }).code).toBe(0);
    const over = repo.git('rev-parse', 'HEAD').slice(0, 12);
    const result = push(['feature']);
    expect(result.code).toBe(0);
    expect(result.output).toContain('Let through by the overrides of its commits');
    expect(result.output).toContain(
      `${over} overridden by Test Author <author@example.test> (the override recorded when it was committed): release today`,
    );
    expect(ledgerRecords(repo).at(-1)).toMatchObject({
      source: 'range',
      verdict: 'block',
      override: { by: 'Test Author <author@example.test>', reason: `${over}: release today` },
    });
    expect(remoteHas('feature')).toBe(true);
  });

  it('keeps the block when the commits without an override only add up to it', () => {
    repo.git('checkout', '-q', '-b', 'feature');
    commitFile('src/b.ts', 'export const b1 = 1;\nexport const b2 = 2;\n');
    commitFile('src/c.ts', 'export const c1 = 1;\nexport const c2 = 2;\n');
    repo.write('src/d.ts', 'export const d = 1;\n');
    repo.git('add', 'src/d.ts');
    repo.git('commit', '-q', '--no-verify', '-m', 'd', '--trailer', 'Aureus-Override: tiny');
    const result = push(['feature']);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /but the commits without an override cost \d+ points together, over the budget of 10: the block stands\./,
    );
    expect(remoteHas('feature')).toBe(false);
  });

  it('honours an Aureus-Override trailer, and keeps the block for a commit without one', () => {
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const message = ['-m', 'over', '--trailer', 'Aureus-Override: hotfix for the outage'];
    repo.git('commit', '-q', '--no-verify', ...message);
    const trailed = repo.git('rev-parse', 'HEAD').slice(0, 12);
    const second = commitFile('src/over2.ts', OVER_BUDGET.replaceAll('v', 'w')).slice(0, 12);
    const blocked = push(['feature']);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain(
      `but ${second}, which has none, is over budget on its own: the block stands.`,
    );
    expect(ledgerRecords(repo).at(-1)).toMatchObject({ verdict: 'block', override: null });
    repo.git('reset', '-q', '--hard', 'HEAD~1');
    const passed = push(['feature']);
    expect(passed.code).toBe(0);
    expect(passed.output).toContain(
      `${trailed} overridden by Test Author <author@example.test> (its Aureus-Override trailer): hotfix for the outage`,
    );
  });
});

describe('parsePushLines', () => {
  const sha = (digit: string) => digit.repeat(40);
  it('reads git’s lines and refuses anything else', () => {
    expect(parsePushLines(`refs/heads/a ${sha('1')} refs/heads/a ${sha('0')}\n\n`)).toEqual([
      {
        localRef: 'refs/heads/a',
        localSha: sha('1'),
        remoteRef: 'refs/heads/a',
        remoteSha: sha('0'),
      },
    ]);
    expect(parsePushLines('')).toEqual([]);
    expect(() => parsePushLines('refs/heads/a 123 refs/heads/a 456')).toThrow(/cannot read/);
  });
});
