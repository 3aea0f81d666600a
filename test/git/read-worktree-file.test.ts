import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { toGitPath } from '../../src/git/git-path.js';
import { readWorktreeFile, type WorktreeRoot } from '../../src/git/read-worktree-file.js';
import { isolateGit, runGit } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

let restore: () => Promise<void>;
let temp: { path: string; remove: () => Promise<void> };
let root: WorktreeRoot;

const path = (text: string) => toGitPath(Buffer.from(text));

beforeAll(async () => {
  restore = await isolateGit();
  temp = await makeTempDir('worktree-reader');
  const tree = join(temp.path, 'tree');
  const outside = join(temp.path, 'outside');
  mkdirSync(join(tree, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'SECRET outside the repository\n');
  writeFileSync(join(tree, 'src', 'plain.ts'), 'export {};\n');
  symlinkSync(outside, join(tree, 'escape'));
  symlinkSync(join(outside, 'secret.txt'), join(tree, 'src', 'link.ts'));
  root = { realPath: realpathSync(tree), objectFormat: 'sha1', maxBytes: 1024 };
});

afterAll(async () => {
  await temp.remove();
  await restore();
});

describe('readWorktreeFile', () => {
  it('reads a file with the blob id git hash-object gives it', async () => {
    const read = await readWorktreeFile(root, path('src/plain.ts'), '100644');
    const expected = runGit(temp.path, ['hash-object', join(root.realPath, 'src/plain.ts')]);
    expect(read).toMatchObject({ ok: true, mode: '100644', blobSha: expected, size: 11 });
  });

  it('reads a symlink as its target string, never the file it points to', async () => {
    const read = await readWorktreeFile(root, path('src/link.ts'), '100644');
    expect(read).toMatchObject({ ok: true, mode: '120000' });
    expect(read.ok && read.bytes).toBeFalsy();
  });

  it('refuses a path whose folder is a symlink out of the repository', async () => {
    const read = await readWorktreeFile(root, path('escape/secret.txt'), '100644');
    expect(read).toEqual({
      ok: false,
      reason: 'a folder on its path is a symbolic link, which AUREUS does not follow',
    });
  });

  it('refuses paths that climb out of the working tree', async () => {
    for (const bad of ['../outside/secret.txt', 'src/../../outside/secret.txt', '/etc/passwd']) {
      expect(await readWorktreeFile(root, path(bad), '100644')).toEqual({
        ok: false,
        reason: 'its path leaves the working tree',
      });
    }
  });

  it('reports a file that vanished instead of failing', async () => {
    const read = await readWorktreeFile(root, path('src/gone.ts'), '100644');
    expect(read.ok).toBe(false);
  });
});
