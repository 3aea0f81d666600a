import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  aureus,
  commit,
  commitLinks,
  hookLineFor,
  ledgerLines,
  makeNodeRepo,
  type NodeRepo,
  OVER_BUDGET,
  SMALL_CHANGE,
  useHookTestEnvironment,
} from './hook-fixture.js';

describe('post-commit: each hook check names the commit it became', () => {
  let repo: NodeRepo;
  useHookTestEnvironment();
  beforeEach(async () => {
    repo = await makeNodeRepo('commit-links');
    expect(aureus(repo.dir, ['hooks', 'install']).code).toBe(0);
    repo.commit('install the hooks');
  });
  afterEach(() => repo.remove());

  const stage = (path: string, text: string) => {
    repo.write(path, text);
    repo.git('add', path);
  };
  /** The check line a commit's link names. */
  const checkOf = (link: Record<string, unknown>) =>
    ledgerLines(repo).find((line) => line.hash === link.check)?.record;

  it('is installed beside pre-commit', () => {
    expect(readFileSync(join(repo.dir, '.husky', 'post-commit'), 'utf8')).toBe(
      `${hookLineFor('post-commit')}\n`,
    );
  });

  it('links a passing commit and an overridden one to their own checks', () => {
    stage('src/small.ts', SMALL_CHANGE);
    expect(commit(repo, ['-q', '-m', 'small']).code).toBe(0);
    const small = repo.git('rev-parse', 'HEAD');
    stage('src/over.ts', OVER_BUDGET);
    expect(commit(repo, ['-q', '-m', 'over'], { AUREUS_OVERRIDE: 'release today' }).code).toBe(0);
    const over = repo.git('rev-parse', 'HEAD');
    const links = commitLinks(repo);
    expect(links).toEqual([
      expect.objectContaining({ commit: small, verdict: 'pass' }),
      expect.objectContaining({ commit: over, verdict: 'block' }),
    ]);
    expect(checkOf(links[0] ?? {})).toMatchObject({ source: 'staged', verdict: 'pass' });
    expect(checkOf(links[1] ?? {})).toMatchObject({
      source: 'staged',
      override: { reason: 'release today' },
    });
    // What `ledger show` prints: the check's row names the commit it became.
    const shown = aureus(repo.dir, ['ledger', 'show']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`${over.slice(0, 12)}  overridden by`);
  });

  it('links a commit that renames and edits a file, whatever rename detection finds', () => {
    repo.git('mv', 'src/base.ts', 'src/renamed.ts');
    stage('src/renamed.ts', 'export const base = 0;\nexport const renamed = 1;\n');
    expect(commit(repo, ['-q', '-m', 'rename']).code).toBe(0);
    expect(commitLinks(repo)).toEqual([
      expect.objectContaining({ commit: repo.git('rev-parse', 'HEAD') }),
    ]);
  });

  it('links an amended commit to the check of the amend', () => {
    stage('src/small.ts', SMALL_CHANGE);
    expect(commit(repo, ['-q', '-m', 'small']).code).toBe(0);
    stage('src/more.ts', 'export const more = 2;\n');
    expect(commit(repo, ['-q', '--amend', '-m', 'small and more']).code).toBe(0);
    const amended = repo.git('rev-parse', 'HEAD');
    expect(commitLinks(repo).at(-1)).toMatchObject({ commit: amended, verdict: 'pass' });
  });

  it('links nothing to a commit whose content no check saw', () => {
    stage('src/over.ts', OVER_BUDGET);
    expect(commit(repo, ['-q', '-m', 'over']).code).toBe(1);
    // The blocked check is in the ledger; the content then changes and skips the hooks.
    stage('src/over.ts', `${OVER_BUDGET}export const extra = 1;\n`);
    expect(commit(repo, ['-q', '--no-verify', '-m', 'over, unchecked']).code).toBe(0);
    expect(commitLinks(repo)).toEqual([]);
  });
});
