import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChange } from '../../src/git/index.js';
import { AureusError } from '../../src/model/errors.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';
import { installFakeGit } from './support/fake-git.js';

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let scratch: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('failures');
  repo.write('a.txt', 'a\n');
  repo.commit('one');
  repo.write('a.txt', 'b\n');
  repo.git('add', 'a.txt');
  scratch = await makeTempDir('git-scratch');
});

afterAll(async () => {
  await scratch.remove();
  await repo.remove();
  await restore();
});

describe('git failures are AureusErrors with exit 2, never an empty change', () => {
  it('in a folder that is not a repository', async () => {
    const reading = readChange(scratch.path, { kind: 'staged' });
    await expect(reading).rejects.toBeInstanceOf(AureusError);
    await expect(reading).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(
        /^git rev-parse failed \(exit 128\): fatal: not a git repository/,
      ),
      hint: expect.stringContaining('git repository'),
    });
  });

  it('for a folder that does not exist', async () => {
    await expect(
      readChange(join(scratch.path, 'missing'), { kind: 'staged' }),
    ).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('is not a folder') });
  });

  it('for a revision that does not exist', async () => {
    await expect(
      readChange(repo.dir, { kind: 'range', base: 'no-such-branch', head: 'HEAD' }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: 'the base revision "no-such-branch" does not name a commit in this repository.',
    });
    await expect(
      readChange(repo.dir, { kind: 'commit', ref: 'deadbeefdeadbeefdeadbeefdeadbeefdeadbeef' }),
    ).rejects.toMatchObject({ exitCode: 2 });
  });

  it('for a revision git could take for an option', async () => {
    const target = join(scratch.path, 'written-by-git');
    await expect(
      readChange(repo.dir, { kind: 'range', base: `--output=${target}`, head: 'HEAD' }),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('not a valid git revision'),
    });
    expect(existsSync(target)).toBe(false);
  });

  it('for staged changes in a bare repository', async () => {
    const bare = await makeRepo('bare', { init: false });
    try {
      bare.git('init', '--quiet', '--bare');
      await expect(readChange(bare.dir, { kind: 'staged' })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('has no working tree'),
      });
    } finally {
      await bare.remove();
    }
  });

  it('when git diff itself exits 128 with no output', async () => {
    const fake = installFakeGit(scratch.path, { failOn: 'diff' });
    try {
      await expect(readChange(repo.dir, { kind: 'staged' })).rejects.toMatchObject({
        exitCode: 2,
        message: 'git diff failed (exit 128): fatal: simulated failure',
      });
    } finally {
      fake.uninstall();
    }
  });

  it('when git cat-file exits 128 while the blobs are read', async () => {
    const fake = installFakeGit(scratch.path, { failOn: 'cat-file' });
    try {
      await expect(readChange(repo.dir, { kind: 'staged' })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('git cat-file failed (exit 128)'),
      });
    } finally {
      fake.uninstall();
    }
  });

  it('when git is not installed', async () => {
    const previous = process.env.PATH;
    process.env.PATH = join(scratch.path, 'no-bin');
    try {
      await expect(readChange(repo.dir, { kind: 'staged' })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('git could not be started'),
      });
    } finally {
      process.env.PATH = previous;
    }
  });

  it('for a read limit that is not a byte count', async () => {
    await expect(
      readChange(repo.dir, { kind: 'staged' }, { maxBlobBytes: -1 }),
    ).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('maxBlobBytes') });
  });
});
