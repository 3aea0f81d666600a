import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listTrackedFiles, readBlobs } from '../../src/git/index.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';
import { installFakeGit } from './support/fake-git.js';

const SUBMODULE = '3333333333333333333333333333333333333333';
let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let head: string;

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('list');
  repo.write('src/b.ts', 'export const b = 2;\n');
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  repo.symlink('/etc/passwd', 'passwd-link');
  mkdirSync(join(repo.dir, 'vendor/sub'), { recursive: true });
  repo.git('update-index', '--add', '--cacheinfo', `160000,${SUBMODULE},vendor/sub`);
  head = repo.commit('files');
  repo.write('staged-only.ts', 'export const s = 3;\n');
  repo.git('add', 'staged-only.ts');
});

afterAll(async () => {
  await repo.remove();
  await restore();
});

describe('listTrackedFiles', () => {
  it('lists every file of a commit with blob id, mode and size, by path', async () => {
    const files = await listTrackedFiles(repo.dir, 'HEAD');
    expect(files).toEqual([
      {
        path: 'logo.png',
        blobSha: repo.git('rev-parse', `${head}:logo.png`),
        mode: '100644',
        size: 6,
      },
      {
        path: 'passwd-link',
        blobSha: repo.git('rev-parse', `${head}:passwd-link`),
        mode: '120000',
        size: 11,
      },
      {
        path: 'src/a.ts',
        blobSha: repo.git('rev-parse', `${head}:src/a.ts`),
        mode: '100644',
        size: 20,
      },
      {
        path: 'src/b.ts',
        blobSha: repo.git('rev-parse', `${head}:src/b.ts`),
        mode: '100644',
        size: 20,
      },
      { path: 'vendor/sub', blobSha: SUBMODULE, mode: '160000' },
    ]);
  });

  it('lists a commit without sizes when told: the same files, ids and modes', async () => {
    const sized = await listTrackedFiles(repo.dir, 'HEAD');
    const unsized = await listTrackedFiles(repo.dir, 'HEAD', { sizes: false });
    expect(unsized).toEqual(sized.map(({ size: _size, ...file }) => file));
    // Each listing as asked, whichever came first in this process (listings are kept).
    expect(
      (await listTrackedFiles(repo.dir, head, { sizes: false })).some((f) => 'size' in f),
    ).toBe(false);
    expect((await listTrackedFiles(repo.dir, head)).filter((f) => 'size' in f)).toHaveLength(4);
  });

  it('lists the index when no ref is given, staged files included, from any subfolder', async () => {
    const files = await listTrackedFiles(join(repo.dir, 'src'));
    expect(files.map((f) => f.path)).toEqual([
      'logo.png',
      'passwd-link',
      'src/a.ts',
      'src/b.ts',
      'staged-only.ts',
      'vendor/sub',
    ]);
    expect(files.find((f) => f.path === 'staged-only.ts')).toEqual({
      path: 'staged-only.ts',
      blobSha: repo.git('rev-parse', ':staged-only.ts'),
      mode: '100644',
    });
  });

  it('fails with exit 2 for an unknown ref', async () => {
    await expect(listTrackedFiles(repo.dir, 'nope')).rejects.toMatchObject({ exitCode: 2 });
  });

  it('lists a full commit id as its name, and fails with exit 2 for one that is no commit', async () => {
    expect(await listTrackedFiles(repo.dir, head)).toEqual(
      await listTrackedFiles(repo.dir, 'HEAD'),
    );
    const notACommit = { exitCode: 2, message: expect.stringContaining('does not name a commit') };
    await expect(listTrackedFiles(repo.dir, 'f'.repeat(40))).rejects.toMatchObject(notACommit);
    const blob = repo.git('rev-parse', `${head}:src/a.ts`);
    await expect(listTrackedFiles(repo.dir, blob)).rejects.toMatchObject(notACommit);
  });
});

describe('readBlobs', () => {
  it('reads listed blobs in request order, by kind, in one batch', async () => {
    const files = await listTrackedFiles(repo.dir, head);
    const requests = [...files].reverse();
    const versions = await readBlobs(repo.dir, requests, { maxBlobBytes: 19 });
    expect(versions.map((v) => [v.path, v.kind])).toEqual([
      ['vendor/sub', 'submodule'],
      ['src/b.ts', 'too-large'],
      ['src/a.ts', 'too-large'],
      ['passwd-link', 'symlink'],
      ['logo.png', 'binary'],
    ]);
    const texts = await readBlobs(
      repo.dir,
      files.filter((f) => f.path.endsWith('.ts')),
    );
    expect(texts.map((v) => v.text)).toEqual(['export const a = 1;\n', 'export const b = 2;\n']);
  });

  it('tells the sizes of what it will read, in request order, as --batch-check gives them', async () => {
    const files = await listTrackedFiles(repo.dir, head);
    const requests = [...files].reverse();
    const told: Array<readonly (number | undefined)[]> = [];
    const versions = await readBlobs(repo.dir, requests, {
      maxBlobBytes: 12,
      onSizes: (sizes) => told.push(sizes),
    });
    // The submodule is not a blob; the sources are over this limit; the link and the image fit.
    expect(told).toEqual([[undefined, undefined, undefined, 11, 6]]);
    expect(versions.map((v) => v.size)).toEqual([0, 20, 20, 11, 6]);
  });

  it('never streams a blob over the limit: its size comes from `info` alone, in the same process', async () => {
    const big = await makeRepo('read-blobs-big');
    const bin = await makeTempDir('read-blobs-bin');
    try {
      big.write('vendor/bundle.js', `var x = "${'x'.repeat(3 * 1024 * 1024)}";\n`);
      big.write('src/a.ts', 'export const a = 1;\n');
      big.commit('a bundle');
      const files = await listTrackedFiles(big.dir, 'HEAD');
      const fake = installFakeGit(bin.path, { logInputOf: 'cat-file --batch-command' });
      try {
        const versions = await readBlobs(big.dir, files, { maxBlobBytes: 1024 * 1024 });
        expect(versions.map((v) => [v.path, v.kind, v.size])).toEqual([
          ['src/a.ts', 'text', 20],
          ['vendor/bundle.js', 'too-large', 3 * 1024 * 1024 + 12],
        ]);
        const [small, bundle] = files.map((file) => file.blobSha);
        expect(fake.input()).toEqual([
          `info ${small}`,
          `info ${bundle}`,
          'flush',
          `contents ${small}`,
          'flush',
        ]);
        expect(fake.calls().filter((call) => call.includes('cat-file'))).toHaveLength(1);
      } finally {
        fake.uninstall();
      }
    } finally {
      await bin.remove();
      await big.remove();
    }
  });

  it('reads with --batch-check and --batch where git predates --batch-command, asking once', async () => {
    const old = await makeRepo('read-blobs-old-git');
    const bin = await makeTempDir('read-blobs-old-bin');
    try {
      old.write('vendor/bundle.js', `var x = "${'x'.repeat(2048)}";\n`);
      old.write('src/a.ts', 'export const a = 1;\n');
      old.commit('two files');
      const files = await listTrackedFiles(old.dir, 'HEAD');
      const fake = installFakeGit(bin.path, { unknownOption: '--batch-command' });
      try {
        const told: Array<readonly (number | undefined)[]> = [];
        const read = () =>
          readBlobs(old.dir, files, { maxBlobBytes: 1024, onSizes: (sizes) => told.push(sizes) });
        const first = await read();
        const second = await read();
        for (const versions of [first, second]) {
          expect(versions.map((v) => [v.path, v.kind, v.size, v.text])).toEqual([
            ['src/a.ts', 'text', 20, 'export const a = 1;\n'],
            ['vendor/bundle.js', 'too-large', 2048 + 12, undefined],
          ]);
        }
        expect(told).toEqual([
          [20, undefined],
          [20, undefined],
        ]);
        const catFiles = fake.calls().filter((call) => call.includes('cat-file'));
        // Refused once, then the two older modes for each read, --batch-command not asked again.
        expect(catFiles.map((call) => call.replace(/^.*cat-file /, ''))).toEqual([
          '--batch-command --buffer',
          '--batch-check --buffer',
          '--batch --buffer',
          '--batch-check --buffer',
          '--batch --buffer',
        ]);
      } finally {
        fake.uninstall();
      }
    } finally {
      await bin.remove();
      await old.remove();
    }
  });

  it('fails with exit 2 for a blob the repository does not have', async () => {
    await expect(
      readBlobs(repo.dir, [
        { path: 'ghost.ts', blobSha: '0123456789012345678901234567890123456789', mode: '100644' },
      ]),
    ).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('ghost.ts') });
  });

  it('refuses an id that is not a full object id before starting git', async () => {
    await expect(
      readBlobs(repo.dir, [{ path: 'x', blobSha: 'HEAD:src/a.ts', mode: '100644' }]),
    ).rejects.toMatchObject({ exitCode: 2 });
  });
});
