import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listTrackedFiles, readChange } from '../../src/git/index.js';
import { isolateGit, makeRepo } from '../support/git-fixture.js';
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
  it('is read with one git diff and two cat-file processes (sizes, then contents), whatever the file count', async () => {
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
      expect(calls.filter((call) => call.includes('cat-file --batch-check'))).toHaveLength(1);
      expect(calls.filter((call) => call.includes('cat-file --batch '))).toHaveLength(1);
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
});
