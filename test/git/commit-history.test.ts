import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readCommitHistory } from '../../src/git/commit-history.js';
import { isolateGit, makeRepo } from '../support/git-fixture.js';

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateGit();
});
afterAll(async () => {
  await restore();
});

/** A file of `lines` distinct lines, about 20 bytes each. */
const bulk = (name: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `export const ${name}${i} = ${i};`).join('\n');

describe('readCommitHistory', () => {
  it('reads every commit, oldest first, with its added and deleted lines', async () => {
    const repo = await makeRepo('history-whole');
    try {
      repo.write('a.ts', 'export const a = 1;\n');
      repo.commit('first');
      repo.write('a.ts', 'export const a = 2;\n');
      repo.commit('second');
      const history = await readCommitHistory(repo.dir);
      expect(history.cut).toBe(false);
      expect(history.commits.map((commit) => commit.subject)).toEqual(['first', 'second']);
      expect(history.commits[1]?.files).toEqual([
        { path: 'a.ts', added: ['export const a = 2;'], deleted: ['export const a = 1;'] },
      ]);
    } finally {
      await repo.remove();
    }
  });

  it('stops at its byte limit, keeps the newest commits read whole, and says the history was cut', async () => {
    const repo = await makeRepo('history-bytes');
    try {
      for (const name of ['old', 'middle', 'new']) {
        repo.write(`${name}.ts`, `${bulk(name, 400)}\n`);
        repo.commit(name);
      }
      // Each commit's diff is about 10 KB: 15 KB holds the newest whole and part of the next.
      const history = await readCommitHistory(repo.dir, 15_000);
      expect(history.cut).toBe(true);
      expect(history.commits.map((commit) => commit.subject)).toEqual(['new']);
      expect(history.commits[0]?.files[0]?.added).toHaveLength(400);
    } finally {
      await repo.remove();
    }
  });
});
