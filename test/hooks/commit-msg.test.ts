import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
} from './hook-fixture.js';

const NOTE = join('.aureus', 'local', 'pre-commit-blocked');

describe('the Aureus-Override trailer, through the commit-msg hook and a real git commit', () => {
  let repo: NodeRepo;
  useHookTestEnvironment();
  beforeEach(async () => {
    repo = await makeNodeRepo('commit-msg');
    expect(aureus(repo.dir, ['hooks', 'install', 'commit-msg']).code).toBe(0);
    repo.commit('install the hooks');
  });
  afterEach(() => repo.remove());

  const stageOverBudget = () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
  };

  it('installs pre-commit deferring to commit-msg', () => {
    const husky = join(repo.dir, '.husky');
    expect(readFileSync(join(husky, 'pre-commit'), 'utf8')).toBe(
      `${hookLineFor('pre-commit', ' --defer-to-commit-msg')}\n`,
    );
    expect(readFileSync(join(husky, 'commit-msg'), 'utf8')).toBe(
      `${hookLineFor('commit-msg', ' "$1"')}\n`,
    );
  });

  it('refuses a blocked commit whose message has no trailer, index untouched', () => {
    stageOverBudget();
    settleIndex(repo);
    const [index, before] = [indexDigest(repo), repo.git('rev-parse', 'HEAD')];
    const result = commit(repo, ['-m', 'over budget']);
    expect(result.code).toBe(1);
    expect(result.output).toContain('The commit-msg hook will refuse this commit unless');
    expect(result.output).toContain('Refused: the message has no Aureus-Override: <why> trailer.');
    expect(result.output).toContain('husky - commit-msg script failed (code 1)');
    expect(indexDigest(repo)).toBe(index);
    expect(repo.git('rev-parse', 'HEAD')).toBe(before);
    expect(existsSync(join(repo.dir, NOTE))).toBe(false);
  });

  it('lets it through with the trailer and records who and why', () => {
    stageOverBudget();
    const result = commit(repo, [
      '-q',
      '-m',
      'over budget',
      '--trailer',
      'Aureus-Override: release blocker, simplified next sprint',
    ]);
    expect(result.code).toBe(0);
    expect(result.output).toContain('let through by its Aureus-Override trailer');
    expect(repo.git('log', '-1', '--format=%B')).toContain('Aureus-Override: release blocker');
    expect(ledgerRecords(repo).at(-1)).toMatchObject({
      verdict: 'block',
      cost: { total: 16 },
      override: {
        by: 'Test Author <author@example.test>',
        reason: 'release blocker, simplified next sprint',
      },
    });
  });

  it('ignores a trailer-like line in the body: only the trailer block counts', () => {
    stageOverBudget();
    const message = 'over budget\n\nAureus-Override: not a trailer\n\nthe last paragraph\n';
    const result = commit(repo, ['-q', '-m', message]);
    expect(result.code).toBe(1);
  });

  it('still takes AUREUS_OVERRIDE, in pre-commit', () => {
    stageOverBudget();
    const result = commit(repo, ['-q', '-m', 'over'], { AUREUS_OVERRIDE: 'on call' });
    expect(result.code).toBe(0);
    expect(ledgerRecords(repo).at(-1)).toMatchObject({ override: { reason: 'on call' } });
  });

  it('leaves a passing commit to pre-commit alone: one check, no override recorded', () => {
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    const result = commit(repo, ['-q', '-m', 'small', '--trailer', 'Aureus-Override: not needed']);
    expect(result.code).toBe(0);
    expect(ledgerRecords(repo)).toEqual([
      expect.objectContaining({ verdict: 'pass', override: null }),
    ]);
  });

  it('ignores a note left by an abandoned commit once HEAD has moved', () => {
    stageOverBudget();
    const message = join(repo.dir, 'message.txt');
    writeFileSync(message, 'over\n');
    expect(aureus(repo.dir, ['hook', 'pre-commit', '--defer-to-commit-msg']).code).toBe(0);
    expect(existsSync(join(repo.dir, NOTE))).toBe(true);
    repo.git('commit', '-q', '--no-verify', '-m', 'committed without hooks');
    expect(aureus(repo.dir, ['hook', 'commit-msg', message]).code).toBe(0);
    expect(existsSync(join(repo.dir, NOTE))).toBe(false);
  });
});

describe('the hooks in a repository that tracks .aureus/local/', () => {
  let repo: NodeRepo;
  useHookTestEnvironment();
  const PLANTED = `${JSON.stringify({ at: 'x', prev: 'y', record: { verdict: 'pass' } })}\n`;
  beforeEach(async () => {
    repo = await makeNodeRepo('tracked-local');
    expect(aureus(repo.dir, ['hooks', 'install', 'commit-msg']).code).toBe(0);
    // A ledger AUREUS never wrote, committed where this machine's ledger goes.
    repo.write('.aureus/local/ledger.jsonl', PLANTED);
    repo.commit('install the hooks, track the local folder');
  });
  afterEach(() => repo.remove());

  const localFolder = () => repo.git('status', '--porcelain', '--ignored', '--', '.aureus/local');

  it('judge as anywhere, and neither write into the tracked folder nor read it', () => {
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    const passing = commit(repo, ['-q', '-m', 'small']);
    expect(passing.code).toBe(0);
    expect(passing.output).toContain(
      'aureus: this run is not in the local ledger: this repository tracks .aureus/local/ledger.jsonl, but',
    );
    expect(passing.output).toContain('git rm -r --cached .aureus/local');
    expect(localFolder()).toBe('');
    expect(readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8')).toBe(PLANTED);
    const shown = aureus(repo.dir, ['ledger', 'show']);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain('this repository tracks .aureus/local/ledger.jsonl');
  });

  it('refuse a blocked commit at once, since no note can be left for commit-msg, and an override', () => {
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const deferred = commit(repo, ['-q', '-m', 'over']);
    expect(deferred.code).toBe(1);
    expect(deferred.output).toContain('husky - pre-commit script failed (code 2)');
    expect(deferred.output).toContain('this repository tracks .aureus/local/ledger.jsonl');
    const overridden = commit(repo, ['-q', '-m', 'over'], { AUREUS_OVERRIDE: 'on call' });
    expect(overridden.code).toBe(1);
    expect(overridden.output).toContain('husky - pre-commit script failed (code 2)');
    expect(localFolder()).toBe('');
  });
});
