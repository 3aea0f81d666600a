import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChange } from '../../src/git/index.js';
import { isolateGit, makeRepo } from '../support/git-fixture.js';

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateGit();
});
afterAll(async () => {
  await restore();
});

describe('readChange of staged changes', () => {
  it('reads the head side from the index, not from the working tree', async () => {
    const repo = await makeRepo('staged');
    try {
      repo.write('a.txt', 'committed\n');
      const head = repo.commit('one');
      repo.write('a.txt', 'staged\n');
      repo.git('add', 'a.txt');
      repo.write('a.txt', 'staged\nand more in the working tree only\n');
      repo.write('untracked.txt', 'not part of any change\n');
      const change = await readChange(repo.dir, { kind: 'staged' });
      expect(change).toMatchObject({ source: 'staged', baseSha: head, headSha: null });
      expect(change.files).toHaveLength(1);
      expect(change.files[0]?.base?.text).toBe('committed\n');
      expect(change.files[0]?.head).toMatchObject({
        text: 'staged\n',
        blobSha: repo.git('rev-parse', ':a.txt'),
      });
    } finally {
      await repo.remove();
    }
  });

  it('is an empty, complete change when nothing is staged', async () => {
    const repo = await makeRepo('nothing-staged');
    try {
      repo.write('a.txt', 'a\n');
      repo.commit('one');
      const change = await readChange(repo.dir, { kind: 'staged' });
      expect(change.files).toEqual([]);
      expect(change.complete).toBe(true);
    } finally {
      await repo.remove();
    }
  });

  it('works from a subfolder, with paths from the top of the repository', async () => {
    const repo = await makeRepo('subfolder');
    try {
      repo.write('top.txt', 'top\n');
      repo.write('deep/inner/file.txt', 'inner\n');
      repo.git('add', '--all');
      const change = await readChange(join(repo.dir, 'deep', 'inner'), { kind: 'staged' });
      expect(change.files.map((f) => f.path)).toEqual(['deep/inner/file.txt', 'top.txt']);
    } finally {
      await repo.remove();
    }
  });

  it('marks an unmerged path as incomplete during a merge conflict', async () => {
    const repo = await makeRepo('conflict');
    try {
      repo.write('x.txt', 'base\n');
      repo.commit('base');
      repo.conflict('x.txt');
      const change = await readChange(repo.dir, { kind: 'staged' });
      expect(change.complete).toBe(false);
      expect(change.notes).toEqual([expect.stringContaining('x.txt is unmerged')]);
    } finally {
      await repo.remove();
    }
  });
});

describe('readChange of working-tree changes', () => {
  it('reads edited tracked files from disk with the blob id git would give them', async () => {
    const repo = await makeRepo('worktree');
    try {
      repo.write('edited.txt', 'before\n');
      repo.write('removed.txt', 'soon gone\n');
      repo.write('same.txt', 'same\n');
      const head = repo.commit('one');
      repo.write('edited.txt', 'after\n');
      rmSync(join(repo.dir, 'removed.txt'));
      repo.write('untracked.txt', 'ignored: not tracked\n');
      const change = await readChange(repo.dir, { kind: 'worktree' });
      expect(change).toMatchObject({ source: 'worktree', baseSha: head, headSha: null });
      expect(change.complete).toBe(true);
      expect(change.files.map((f) => [f.path, f.status])).toEqual([
        ['edited.txt', 'modified'],
        ['removed.txt', 'deleted'],
      ]);
      expect(change.files[0]?.head).toEqual({
        path: 'edited.txt',
        blobSha: repo.git('hash-object', 'edited.txt'),
        mode: '100644',
        kind: 'text',
        size: 6,
        text: 'after\n',
        validUtf8: true,
      });
    } finally {
      await repo.remove();
    }
  });

  it('includes staged and unstaged edits together', async () => {
    const repo = await makeRepo('worktree-both');
    try {
      repo.write('a.txt', 'a\n');
      repo.commit('one');
      repo.write('b.txt', 'b\n');
      repo.git('add', 'b.txt');
      repo.write('a.txt', 'a2\n');
      const change = await readChange(repo.dir, { kind: 'worktree' });
      expect(change.files.map((f) => [f.path, f.status, f.head?.text])).toEqual([
        ['a.txt', 'modified', 'a2\n'],
        ['b.txt', 'added', 'b\n'],
      ]);
    } finally {
      await repo.remove();
    }
  });
});

describe('readChange in a repository without commits', () => {
  it('compares staged files with the empty tree and has no base commit', async () => {
    const repo = await makeRepo('empty');
    try {
      expect((await readChange(repo.dir, { kind: 'staged' })).files).toEqual([]);
      repo.write('first.txt', 'first\n');
      repo.git('add', 'first.txt');
      const change = await readChange(repo.dir, { kind: 'staged' });
      expect(change).toMatchObject({ source: 'staged', baseSha: null, headSha: null });
      expect(change.files).toEqual([
        {
          status: 'added',
          path: 'first.txt',
          head: expect.objectContaining({ text: 'first\n', kind: 'text' }),
        },
      ]);
      const worktree = await readChange(repo.dir, { kind: 'worktree' });
      expect(worktree.baseSha).toBeNull();
      expect(worktree.files.map((f) => f.path)).toEqual(['first.txt']);
      // The empty tree is what the first commit is compared with, too.
      const root = repo.commit('root');
      expect(repo.git('diff-tree', '--root', '--no-commit-id', '-r', '--name-only', root)).toBe(
        'first.txt',
      );
      expect(repo.git('hash-object', '-t', 'tree', '/dev/null')).toBe(EMPTY_TREE);
    } finally {
      await repo.remove();
    }
  });
});
