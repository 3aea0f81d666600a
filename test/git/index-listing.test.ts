import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { readIndexListing } from '../../src/git/index-listing.js';
import { listTrackedFiles, trackedPathsUnder } from '../../src/git/list-files.js';
import { openRepository } from '../../src/git/repository.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

const SUBMODULE = '3333333333333333333333333333333333333333';
let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };

beforeAll(async () => {
  restore = await isolateGit();
});

afterAll(async () => {
  await restore();
});

beforeEach(async () => {
  repo = await makeRepo('index-listing');
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.write('src/deep/b.ts', 'export const b = 2;\n');
  repo.write('bin/run.sh', '#!/bin/sh\n');
  chmodSync(join(repo.dir, 'bin/run.sh'), 0o755);
  repo.write('.aureus/policy.yaml', 'version: 1\n');
  repo.write('.aureusx/other.txt', 'not under .aureus\n');
  repo.write('ünïcode/名前.ts', 'export const n = 3;\n');
  repo.symlink('/etc/passwd', 'passwd-link');
  mkdirSync(join(repo.dir, 'vendor/sub'), { recursive: true });
  repo.git('update-index', '--add', '--cacheinfo', `160000,${SUBMODULE},vendor/sub`);
  repo.commit('files');
  repo.write('staged-only.ts', 'export const s = 3;\n');
  repo.git('add', 'staged-only.ts');
  repo.write('intent.ts', 'export const i = 4;\n');
  repo.git('add', '--intent-to-add', 'intent.ts');
  repo.git('update-index', '--skip-worktree', 'src/a.ts');
});

afterEach(async () => {
  delete process.env.GIT_INDEX_FILE;
  await repo.remove();
});

/** What `git ls-files --stage` lists, by path: the answer the index's own reading must give. */
function gitListing(env: Record<string, string> = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return repo
      .git('ls-files', '--stage', '-z', '--full-name')
      .split('\0')
      .filter((line) => line !== '')
      .map((line) => {
        const [head = '', path = ''] = line.split('\t');
        const [mode, blobSha] = head.split(' ');
        return { path, blobSha, mode };
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  } finally {
    process.env = saved;
  }
}

async function inProcess() {
  const read = await readIndexListing(await openRepository(repo.dir));
  return read?.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const indexPath = () => join(repo.dir, '.git', 'index');

/** The index with `edit` applied and its checksum written anew, as a crafted file would be. */
function rewriteIndex(edit: (bytes: Buffer) => void): void {
  const bytes = readFileSync(indexPath());
  edit(bytes);
  const end = bytes.length - 20;
  createHash('sha1').update(bytes.subarray(0, end)).digest().copy(bytes, end);
  writeFileSync(indexPath(), bytes);
}

describe('readIndexListing', () => {
  it('lists what git ls-files --stage lists: modes, links, gitlinks, intent-to-add, skip-worktree, non-ASCII paths', async () => {
    const listed = await inProcess();
    expect(listed).toBeDefined();
    expect(listed).toEqual(gitListing());
    expect(listed?.map((entry) => entry.mode)).toEqual(
      expect.arrayContaining(['100644', '100755', '120000', '160000']),
    );
    expect(await listTrackedFiles(repo.dir)).toEqual(gitListing());
  });

  it('reads a crafted index as git reads it: a blob id changed under a valid checksum is what git lists too', async () => {
    const before = gitListing();
    rewriteIndex((bytes) => {
      // The first entry's object id: 40 bytes of stat data after the 12-byte header.
      bytes.fill(0xab, 12 + 40, 12 + 60);
    });
    const after = gitListing();
    expect(after).not.toEqual(before);
    expect(await inProcess()).toEqual(after);
  });

  it('leaves an index whose checksum does not hold to git: the listing is whatever git makes of it', async () => {
    const bytes = readFileSync(indexPath());
    bytes.fill(0xab, 12 + 40, 12 + 60);
    writeFileSync(indexPath(), bytes);
    expect(await inProcess()).toBeUndefined();
    expect(await listTrackedFiles(repo.dir)).toEqual(gitListing());
  });

  it('leaves an index with a zeroed checksum (index.skipHash) to git', async () => {
    const bytes = readFileSync(indexPath());
    bytes.fill(0, bytes.length - 20);
    writeFileSync(indexPath(), bytes);
    expect(await inProcess()).toBeUndefined();
  });

  it('leaves a split index, whose entries live in a shared file too, to git', async () => {
    repo.git('update-index', '--split-index');
    repo.write('after-split.ts', 'export const x = 5;\n');
    repo.git('add', 'after-split.ts');
    expect(await inProcess()).toBeUndefined();
    expect(await listTrackedFiles(repo.dir)).toEqual(gitListing());
    expect(gitListing().map((entry) => entry.path)).toContain('src/deep/b.ts');
  });

  it('leaves index version 4 (compressed paths) to git', async () => {
    repo.git('update-index', '--index-version', '4');
    expect(await inProcess()).toBeUndefined();
    expect(await listTrackedFiles(repo.dir)).toEqual(gitListing());
  });

  it('leaves a sparse index, whose folder entries stand for files, to git', async () => {
    repo.git('update-index', '--no-skip-worktree', 'src/a.ts');
    repo.git('commit', '--quiet', '--no-verify', '-m', 'staged');
    repo.git('sparse-checkout', 'init', '--cone', '--sparse-index');
    repo.git('sparse-checkout', 'set', 'bin');
    expect(readFileSync(indexPath()).includes(Buffer.from('sdir'))).toBe(true);
    expect(await inProcess()).toBeUndefined();
  });

  it('leaves an index with an extension git may not skip to git', async () => {
    const bytes = readFileSync(indexPath());
    const end = bytes.length - 20;
    const extension = Buffer.concat([Buffer.from('zzzz'), Buffer.from([0, 0, 0, 0])]);
    const crafted = Buffer.concat([bytes.subarray(0, end), extension, Buffer.alloc(20)]);
    createHash('sha1')
      .update(crafted.subarray(0, crafted.length - 20))
      .digest()
      .copy(crafted, crafted.length - 20);
    writeFileSync(indexPath(), crafted);
    expect(await inProcess()).toBeUndefined();
  });

  it('never reads the index through a symbolic link', async () => {
    renameSync(indexPath(), join(repo.dir, '.git', 'real-index'));
    symlinkSync(join(repo.dir, '.git', 'real-index'), indexPath());
    expect(await inProcess()).toBeUndefined();
  });

  it('reads the index GIT_INDEX_FILE names when it is absolute, and leaves a relative one to git', async () => {
    const other = join(repo.dir, '.git', 'other-index');
    const env = { GIT_INDEX_FILE: other };
    Object.assign(process.env, env);
    repo.git('read-tree', 'HEAD');
    const listed = await inProcess();
    expect(listed).toEqual(gitListing(env));
    expect(listed?.map((entry) => entry.path)).not.toContain('staged-only.ts');
    process.env.GIT_INDEX_FILE = '.git/other-index';
    expect(await inProcess()).toBeUndefined();
  });
});

describe('trackedPathsUnder', () => {
  it('answers from the index as git ls-files does: the path and what is below it, nothing beside it', async () => {
    const git = repo.git('ls-files', '-z', '--', ':(literal).aureus').split('\0').filter(Boolean);
    expect(await trackedPathsUnder(repo.dir, '.aureus')).toEqual(git);
    expect(git).toEqual(['.aureus/policy.yaml']);
    expect(await trackedPathsUnder(join(repo.dir, 'src'), 'deep')).toEqual(['deep/b.ts']);
  });
});
