import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChange } from '../../src/git/index.js';
import type { Change, ChangedFile } from '../../src/model/change.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let first: string;
let second: string;

function file(change: Change, path: string): ChangedFile {
  const found = change.files.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`${path} is not in the change: ${change.files.map((f) => f.path)}`);
  return found;
}

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('statuses');
  repo.write('keep.txt', 'unchanged\n');
  repo.write('change.txt', 'one\n');
  repo.write('gone.txt', 'bye\n');
  repo.write('run.sh', '#!/bin/sh\necho hi\n');
  repo.write('link-me.txt', 'a file that becomes a link\n');
  first = repo.commit('first');
  repo.write('change.txt', 'one\ntwo\n');
  repo.write('new.txt', 'fresh\n');
  repo.git('rm', '--quiet', 'gone.txt', 'link-me.txt');
  repo.symlink('keep.txt', 'link-me.txt');
  chmodSync(join(repo.dir, 'run.sh'), 0o755);
  second = repo.commit('second');
});

afterAll(async () => {
  await repo.remove();
  await restore();
});

describe('readChange on a range of two commits', () => {
  let change: Change;
  beforeAll(async () => {
    change = await readChange(repo.dir, { kind: 'range', base: first, head: second });
  });

  it('names the commits, is complete and lists the files by path', () => {
    expect(change).toMatchObject({ source: 'range', baseSha: first, headSha: second });
    expect(change.complete).toBe(true);
    expect(change.notes).toEqual([]);
    expect(change.files.map((f) => [f.path, f.status])).toEqual([
      ['change.txt', 'modified'],
      ['gone.txt', 'deleted'],
      ['link-me.txt', 'type-changed'],
      ['new.txt', 'added'],
      ['run.sh', 'modified'],
    ]);
  });

  it('gives an added file only a head version, with blob id, mode, size and text', () => {
    expect(file(change, 'new.txt')).toEqual({
      status: 'added',
      path: 'new.txt',
      head: {
        path: 'new.txt',
        blobSha: repo.git('rev-parse', `${second}:new.txt`),
        mode: '100644',
        kind: 'text',
        size: 6,
        text: 'fresh\n',
        validUtf8: true,
      },
    });
  });

  it('gives a deleted file only a base version', () => {
    const gone = file(change, 'gone.txt');
    expect(gone.head).toBeUndefined();
    expect(gone.base).toMatchObject({
      path: 'gone.txt',
      blobSha: repo.git('rev-parse', `${first}:gone.txt`),
      text: 'bye\n',
    });
  });

  it('gives a modified file both versions', () => {
    const changed = file(change, 'change.txt');
    expect(changed.base?.text).toBe('one\n');
    expect(changed.head?.text).toBe('one\ntwo\n');
    expect(changed.head?.size).toBe(8);
  });

  it('reports a mode change as modified with both modes and the same blob', () => {
    const script = file(change, 'run.sh');
    expect(script.base?.mode).toBe('100644');
    expect(script.head?.mode).toBe('100755');
    expect(script.head?.blobSha).toBe(script.base?.blobSha);
    expect(script.head?.text).toBe('#!/bin/sh\necho hi\n');
  });

  it('reports a file that became a symlink as type-changed', () => {
    const link = file(change, 'link-me.txt');
    expect(link.base).toMatchObject({ kind: 'text', mode: '100644' });
    expect(link.head).toMatchObject({ kind: 'symlink', mode: '120000', size: 'keep.txt'.length });
    expect(link.head?.text).toBeUndefined();
  });
});

describe('readChange on one commit', () => {
  it('compares the commit with its first parent', async () => {
    const change = await readChange(repo.dir, { kind: 'commit', ref: second });
    const range = await readChange(repo.dir, { kind: 'range', base: first, head: second });
    expect(change.source).toBe('commit');
    expect(change.baseSha).toBe(first);
    expect(change.headSha).toBe(second);
    expect(change.files).toEqual(range.files);
  });

  it('compares a root commit with the empty tree and has no base commit', async () => {
    const change = await readChange(repo.dir, { kind: 'commit', ref: first });
    expect(change.baseSha).toBeNull();
    expect(change.headSha).toBe(first);
    expect(change.files.map((f) => f.status)).toEqual(Array(5).fill('added'));
  });
});

describe('readChange on a three-dot range', () => {
  it('diffs from the merge base, so changes made on the base branch since are left out', async () => {
    const branch = await makeRepo('three-dot');
    try {
      branch.write('shared.txt', 'shared\n');
      const root = branch.commit('root');
      branch.git('checkout', '--quiet', '-b', 'feature');
      branch.write('feature.txt', 'feature\n');
      const feature = branch.commit('feature');
      branch.git('checkout', '--quiet', 'main');
      branch.write('main-only.txt', 'main\n');
      branch.commit('main moves on');
      const threeDot = await readChange(branch.dir, {
        kind: 'range',
        base: 'main',
        head: 'feature',
        threeDot: true,
      });
      expect(threeDot.baseSha).toBe(root);
      expect(threeDot.headSha).toBe(feature);
      expect(threeDot.files.map((f) => [f.path, f.status])).toEqual([['feature.txt', 'added']]);
      const twoDot = await readChange(branch.dir, { kind: 'range', base: 'main', head: 'feature' });
      expect(twoDot.files.map((f) => [f.path, f.status])).toEqual([
        ['feature.txt', 'added'],
        ['main-only.txt', 'deleted'],
      ]);
    } finally {
      await branch.remove();
    }
  });
});

describe('readChange on copies', () => {
  it('reports a copy of a file modified in the same change, with its source', async () => {
    const copies = await makeRepo('copies');
    try {
      const body = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};\n`).join(
        '',
      );
      copies.write('src/original.ts', body);
      const base = copies.commit('original');
      copies.write('src/original.ts', `${body}export const extra = 1;\n`);
      copies.write('src/copy.ts', body);
      const head = copies.commit('copy');
      const change = await readChange(copies.dir, { kind: 'range', base, head });
      const copy = change.files.find((f) => f.path === 'src/copy.ts');
      expect(copy).toMatchObject({ status: 'copied', oldPath: 'src/original.ts', similarity: 100 });
      expect(copy?.base?.path).toBe('src/original.ts');
      expect(copy?.head?.text).toBe(body);
      expect(change.files.find((f) => f.path === 'src/original.ts')?.status).toBe('modified');
    } finally {
      await copies.remove();
    }
  });
});

describe('readChange on a detached HEAD', () => {
  it('reads staged changes and the HEAD commit', async () => {
    const detached = await makeRepo('detached');
    try {
      detached.write('a.txt', 'a\n');
      const one = detached.commit('one');
      detached.write('a.txt', 'a\nb\n');
      const two = detached.commit('two');
      detached.git('checkout', '--quiet', '--detach', one);
      detached.write('b.txt', 'b\n');
      detached.git('add', 'b.txt');
      const staged = await readChange(detached.dir, { kind: 'staged' });
      expect(staged.baseSha).toBe(one);
      expect(staged.files.map((f) => [f.path, f.status])).toEqual([['b.txt', 'added']]);
      const commit = await readChange(detached.dir, { kind: 'commit', ref: 'HEAD' });
      expect(commit.headSha).toBe(one);
      const range = await readChange(detached.dir, { kind: 'range', base: 'HEAD', head: two });
      expect(range.files.map((f) => f.head?.text)).toEqual(['a\nb\n']);
    } finally {
      await detached.remove();
    }
  });
});
