import { describe, expect, it } from '@jest/globals';
import type { CommitDiff } from '../../src/git/commit-history.js';
import { reworkOf } from '../../src/learn/rework.js';

const DAY = 86_400_000;
const commit = (
  sha: string,
  day: number,
  subject: string,
  added: string[],
  deleted: string[] = [],
): CommitDiff => ({ sha, time: day * DAY, subject, files: [{ path: 'a.js', added, deleted }] });

describe('reworkOf', () => {
  it('counts the lines later commits delete within the window, and the fix-ups among them', () => {
    const history = [
      commit('c1', 0, 'feature', ['const a = 1;', '', 'const b = 2;', 'const c = 3;']),
      commit('c2', 3, 'fix: b was wrong', ['  const b = 20;'], ['  const b = 2;']),
      commit('c3', 5, 'tidy', [], ['const a = 1;', 'const zz = 0;']),
      commit('c4', 40, 'revert', [], ['const c = 3;']),
    ];
    expect(reworkOf(history, 0, 30)).toEqual({ rewritten: 2, fixups: ['c2'], fixupLines: 1 });
  });

  it('matches each added line once, however often later commits delete its text', () => {
    const history = [
      commit('c1', 0, 'feature', ['x();']),
      commit('c2', 1, 'move', ['x();'], ['x();']),
      commit('c3', 2, 'move back', ['x();'], ['x();']),
    ];
    expect(reworkOf(history, 0, 30).rewritten).toBe(1);
  });
});
