import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listTrackedFiles, readChange } from '../../src/git/index.js';
import { openRepository } from '../../src/git/repository.js';
import { isolateGit, makeRepo, repoAt } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';
import { installFakeGit } from './support/fake-git.js';

let restore: () => Promise<void>;
beforeAll(async () => {
  restore = await isolateGit();
});
afterAll(async () => {
  await restore();
});

describe('a change of 300 files', () => {
  it('is read with one git diff and one cat-file process (sizes, then contents), whatever the file count', async () => {
    const repo = await makeRepo('many');
    const bin = await makeTempDir('many-bin');
    try {
      for (let i = 0; i < 200; i += 1) {
        repo.write(`src/module-${String(i).padStart(3, '0')}.ts`, `export const v${i} = ${i};\n`);
      }
      const base = repo.commit('200 files');
      for (let i = 0; i < 100; i += 1) {
        repo.write(
          `src/module-${String(i).padStart(3, '0')}.ts`,
          `export const v${i} = ${i + 1};\n`,
        );
      }
      for (let i = 200; i < 400; i += 1) {
        // Unlike every other file, so that copy detection pairs none of them.
        repo.write(`src/new-${i}.md`, `# Note ${i}\n\n${'abcdefghij'.slice(i % 10)}${i * 7919}\n`);
      }
      const head = repo.commit('100 edited, 200 added');
      const fake = installFakeGit(bin.path);
      let change: Awaited<ReturnType<typeof readChange>>;
      try {
        change = await readChange(repo.dir, { kind: 'range', base, head });
      } finally {
        fake.uninstall();
      }
      expect(change.files).toHaveLength(300);
      expect(change.files.filter((f) => f.status === 'modified')).toHaveLength(100);
      expect(change.files.filter((f) => f.status === 'added')).toHaveLength(200);
      expect(change.files.every((f) => f.head?.kind === 'text')).toBe(true);
      expect(change.files.map((f) => f.path)).toEqual(change.files.map((f) => f.path).sort());
      const calls = fake.calls();
      expect(calls.filter((call) => / diff /.test(` ${call} `))).toHaveLength(1);
      // The range's two commits found at once, then every blob.
      expect(calls.filter((call) => call.includes('cat-file'))).toEqual([
        '-c core.quotepath=off cat-file --batch-check=%(objectname)',
        '-c core.quotepath=off cat-file --batch-command --buffer',
      ]);
      expect(calls.length).toBeLessThan(10);
    } finally {
      await bin.remove();
      await repo.remove();
    }
  });
});

describe('opening a repository', () => {
  it('asks git once when a listing and a diff start together', async () => {
    const repo = await makeRepo('open-once');
    const bin = await makeTempDir('open-once-bin');
    try {
      repo.write('src/a.ts', 'export const a = 1;\n');
      repo.commit('a');
      repo.write('src/a.ts', 'export const a = 2;\n');
      const fake = installFakeGit(bin.path);
      try {
        await Promise.all([listTrackedFiles(repo.dir), readChange(repo.dir, { kind: 'worktree' })]);
      } finally {
        fake.uninstall();
      }
      const inspections = fake.calls().filter((call) => call.includes('--is-bare-repository'));
      expect(inspections).toHaveLength(1);
    } finally {
      await bin.remove();
      await repo.remove();
    }
  });

  it('learns what it needs with one git process: the top from a subfolder, bare or not', async () => {
    const repo = await makeRepo('open-one-process');
    const bare = await makeRepo('open-bare', { init: false });
    const bin = await makeTempDir('open-one-bin');
    try {
      bare.git('init', '--quiet', '--bare');
      mkdirSync(join(repo.dir, 'src', 'deep'), { recursive: true });
      const fake = installFakeGit(bin.path);
      try {
        const top = realpathSync(repo.dir);
        expect(await openRepository(join(repo.dir, 'src', 'deep'))).toMatchObject({
          cwd: top,
          workTree: top,
          shallow: false,
          objectFormat: 'sha1',
        });
        expect(fake.calls()).toHaveLength(1);
        expect(await openRepository(bare.dir)).toMatchObject({
          cwd: bare.dir,
          workTree: undefined,
        });
        const inside = join(repo.dir, '.git');
        expect(await openRepository(inside)).toMatchObject({ cwd: inside, workTree: undefined });
        expect(fake.calls()).toHaveLength(3);
      } finally {
        fake.uninstall();
      }
    } finally {
      await bin.remove();
      await bare.remove();
      await repo.remove();
    }
  });

  it('explains a folder that is no repository, and keeps a newline in the top folder’s name', async () => {
    const plain = await makeTempDir('open-not-a-repo');
    const odd = await makeTempDir('open-odd-name');
    try {
      await expect(openRepository(plain.path)).rejects.toMatchObject({
        name: 'AureusError',
        message: expect.stringMatching(/not a git repository/i),
      });
      const named = join(odd.path, 'two\nlines');
      mkdirSync(named);
      const repo = repoAt(named);
      repo.git('init', '--quiet');
      expect((await openRepository(named)).workTree).toBe(realpathSync(named));
    } finally {
      await odd.remove();
      await plain.remove();
    }
  });
});

describe('a range', () => {
  it('finds its base and head with one git process, and names the one that is missing', async () => {
    const repo = await makeRepo('range-one-lookup');
    const bin = await makeTempDir('range-one-lookup-bin');
    try {
      repo.write('a.ts', 'export const a = 1;\n');
      const base = repo.commit('a');
      repo.git('tag', '--annotate', '--message=first', 'v1');
      repo.write('a.ts', 'export const a = 2;\n');
      const head = repo.commit('a again');
      await openRepository(repo.dir);
      const fake = installFakeGit(bin.path);
      try {
        const change = await readChange(repo.dir, { kind: 'range', base: 'v1', head: 'HEAD' });
        expect(change).toMatchObject({ baseSha: base, headSha: head, complete: true });
        const lookups = fake
          .calls()
          .filter((call) => / (rev-parse|cat-file --batch-check)/.test(call));
        expect(lookups).toEqual(['-c core.quotepath=off cat-file --batch-check=%(objectname)']);
        await expect(
          readChange(repo.dir, { kind: 'range', base: 'v1', head: 'no-such-branch' }),
        ).rejects.toMatchObject({
          exitCode: 2,
          message: 'the head revision "no-such-branch" does not name a commit in this repository.',
        });
        await expect(
          readChange(repo.dir, { kind: 'range', base: 'HEAD~5', head: 'no-such-branch' }),
        ).rejects.toMatchObject({
          exitCode: 2,
          message: 'the base revision "HEAD~5" does not name a commit in this repository.',
        });
      } finally {
        fake.uninstall();
      }
    } finally {
      await bin.remove();
      await repo.remove();
    }
  });
});
