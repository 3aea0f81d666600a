import { rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { AureusError } from '../../src/model/errors.js';
import { defaultPolicy } from '../../src/policy/default-policy.js';
import { analyzeRepository } from '../../src/scan/analyze-repository.js';
import { workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

const OVER_LIMIT = `export const big = 1;\n${'// filler line\n'.repeat(80_000)}`;

describe('workingTreeSnapshot', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('worktree-snapshot');
    repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    repo.write('src/b.ts', 'export const b = 1;\n');
    repo.write('src/c.ts', 'export const c = 1;\n');
    repo.write('src/gone.ts', 'export const gone = 1;\n');
    repo.commit('fixture');
  });
  afterEach(() => repo.remove());

  it('holds the index, with the working tree’s edits read from the disk', async () => {
    repo.write('src/b.ts', 'export const b = 2;\n');
    repo.git('add', 'src/b.ts');
    repo.write('src/b.ts', 'export const b = 3;\n');
    repo.write('src/c.ts', 'export const c = 2;\n');
    repo.git('add', 'src/c.ts');
    unlinkSync(join(repo.dir, 'src/gone.ts'));
    repo.write('src/untracked.ts', 'export const u = 1;\n');
    const snapshot = await workingTreeSnapshot(repo.dir);
    expect(snapshot.map((file) => file.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    const [a, b, c] = snapshot;
    // Edited after staging: the working tree's text and git's id for it.
    expect(b).toEqual({
      path: 'src/b.ts',
      blobSha: repo.hashText('export const b = 3;\n'),
      mode: '100644',
      text: 'export const b = 3;\n',
    });
    // Staged only, and untouched: the index's ids, read later by id.
    expect(c).toEqual({
      path: 'src/c.ts',
      blobSha: repo.hashText('export const c = 2;\n'),
      mode: '100644',
    });
    expect(a?.text).toBeUndefined();
  });

  it('keeps a file added with intent to add, with what the working tree holds', async () => {
    repo.write('src/new.ts', 'export const n = 1;\n');
    repo.git('add', '--intent-to-add', 'src/new.ts');
    const snapshot = await workingTreeSnapshot(repo.dir);
    expect(snapshot.find((file) => file.path === 'src/new.ts')).toMatchObject({
      blobSha: repo.hashText('export const n = 1;\n'),
      text: 'export const n = 1;\n',
    });
  });

  it('works before the first commit', async () => {
    const fresh = await makeRepo('worktree-snapshot-fresh');
    try {
      fresh.write('a.ts', 'export const a = 1;\n');
      fresh.git('add', 'a.ts');
      fresh.write('a.ts', 'export const a = 2;\n');
      expect(await workingTreeSnapshot(fresh.dir)).toEqual([
        {
          path: 'a.ts',
          blobSha: fresh.hashText('export const a = 2;\n'),
          mode: '100644',
          text: 'export const a = 2;\n',
        },
      ]);
    } finally {
      await fresh.remove();
    }
  });

  it('analyses an edited file that is not text as what it is, not as a blob git lacks', async () => {
    repo.write('src/b.ts', OVER_LIMIT);
    // A NUL and a byte UTF-8 rejects: binary even as source (`e\0f` alone would be read as text).
    repo.write('src/c.ts', Buffer.from([0x89, 0x00, 0x66]));
    rmSync(join(repo.dir, 'src/gone.ts'));
    repo.symlink('/etc/passwd', 'src/gone.ts');
    const analysis = await analyzeRepository(repo.dir, defaultPolicy());
    expect(analysis.skipped).toEqual([
      { path: 'src/b.ts', reason: 'too-large' },
      { path: 'src/c.ts', reason: 'binary' },
      { path: 'src/gone.ts', reason: 'symlink' },
    ]);
    expect(analysis.unreadable).toEqual([]);
    expect([...analysis.facts.keys()]).toEqual(['src/a.ts']);
  });

  it('stops on an unmerged file with the way out', async () => {
    repo.conflict('src/b.ts');
    const failure = await workingTreeSnapshot(repo.dir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AureusError);
    expect(failure).toMatchObject({ message: expect.stringContaining('src/b.ts is unmerged') });
  });
});
