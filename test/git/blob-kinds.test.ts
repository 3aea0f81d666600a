import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChange } from '../../src/git/index.js';
import type { Change, ChangedFile } from '../../src/model/change.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let base: string;
let head: string;
let change: Change;
const SUBMODULE_ONE = '1111111111111111111111111111111111111111';
const SUBMODULE_TWO = '2222222222222222222222222222222222222222';
const passwd = readFileSync('/etc/passwd', 'utf8');
const SOURCE = 'export const a = 1;\n';
const NUL_IN_COMMENT = `// a NUL \0 in a comment\n${SOURCE}`;
/** A PNG's signature and header: a NUL within the first bytes, and bytes UTF-8 rejects. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49]);
/** Bytes in no order: the NUL rule and UTF-8 both reject them. */
const NOISE = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));

function file(path: string, from: Change = change): ChangedFile {
  const found = from.files.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`${path} is not in the change`);
  return found;
}

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('kinds');
  repo.write('README.md', 'kinds\n');
  // A submodule that is not checked out: a gitlink in the index and an empty folder.
  mkdirSync(join(repo.dir, 'vendor/lib'), { recursive: true });
  repo.git('update-index', '--add', '--cacheinfo', `160000,${SUBMODULE_ONE},vendor/lib`);
  base = repo.commit('base');
  const binary = Buffer.alloc(200, 0x41);
  binary[100] = 0;
  repo.write('image.bin', binary);
  // git only looks at the first 8000 bytes: a NUL after them leaves the file text.
  repo.write('late-nul.txt', Buffer.concat([Buffer.alloc(8000, 0x61), Buffer.from([0])]));
  repo.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  repo.write('empty.txt', '');
  repo.write('big.js', `${'x'.repeat(20_000)}\n`);
  repo.write('src/nul-comment.ts', NUL_IN_COMMENT);
  repo.write('src/utf16le.ts', Buffer.from(`\uFEFF${SOURCE}`, 'utf16le'));
  repo.write('src/utf16be.ts', Buffer.from(`\uFEFF${SOURCE}`, 'utf16le').swap16());
  repo.write('notes-utf16.txt', Buffer.from(`\uFEFF${SOURCE}`, 'utf16le'));
  repo.write('src/logo.ts', PNG);
  repo.write('src/noise.py', NOISE);
  // The same blob: read for the lockfile (its own, larger limit), still too large for big.js.
  repo.write('package-lock.json', `${'x'.repeat(20_000)}\n`);
  repo.write('pnpm-lock.yaml', `${'x'.repeat(20_000)}\n`);
  repo.symlink('/etc/passwd', 'src/a.ts');
  repo.git('add', '--all');
  repo.git('update-index', '--cacheinfo', `160000,${SUBMODULE_TWO},vendor/lib`);
  repo.git('commit', '--quiet', '-m', 'kinds');
  head = repo.git('rev-parse', 'HEAD');
  change = await readChange(repo.dir, { kind: 'range', base, head }, { maxBlobBytes: 10_000 });
});

afterAll(async () => {
  await repo.remove();
  await restore();
});

describe('blob kinds', () => {
  it('reports a file with a NUL in its first 8000 bytes as binary, without text', () => {
    expect(file('image.bin').head).toEqual({
      path: 'image.bin',
      blobSha: repo.git('rev-parse', `${head}:image.bin`),
      mode: '100644',
      kind: 'binary',
      size: 200,
    });
  });

  it('keeps a file text when its only NUL comes after the first 8000 bytes', () => {
    expect(file('late-nul.txt').head?.kind).toBe('text');
  });

  it('decodes invalid UTF-8 lossily and says so', () => {
    expect(file('latin1.txt').head).toMatchObject({
      kind: 'text',
      text: 'caf\uFFFD\n',
      validUtf8: false,
      size: 5,
    });
  });

  it('reads a lockfile over the limit (npm, pnpm), up to the larger limit of lockfiles', () => {
    expect(file('package-lock.json').head).toMatchObject({ kind: 'text', size: 20_001 });
    expect(file('pnpm-lock.yaml').head).toMatchObject({ kind: 'text', size: 20_001 });
    expect(file('big.js').head?.blobSha).toBe(file('package-lock.json').head?.blobSha);
  });

  it('reads an empty file as empty text', () => {
    expect(file('empty.txt').head).toMatchObject({ kind: 'text', text: '', size: 0 });
  });

  it('reports a blob over the limit as too-large with its size, still complete, with a note', () => {
    const big = file('big.js').head;
    expect(big).toMatchObject({ kind: 'too-large', size: 20_001 });
    expect(big?.text).toBeUndefined();
    expect(change.complete).toBe(true);
    expect(change.notes).toEqual([
      expect.stringMatching(/^big\.js is 20001 bytes, over the 10000-byte/),
    ]);
  });

  it('reports a symlink as a symlink and never its target contents', () => {
    const link = file('src/a.ts');
    expect(link.head).toEqual({
      path: 'src/a.ts',
      blobSha: repo.git('rev-parse', `${head}:src/a.ts`),
      mode: '120000',
      kind: 'symlink',
      size: '/etc/passwd'.length,
    });
    expect(JSON.stringify(change)).not.toContain(passwd.slice(0, 20));
  });

  it('reports a submodule by the commit it points at, without reading it', () => {
    expect(file('vendor/lib')).toEqual({
      status: 'modified',
      path: 'vendor/lib',
      base: {
        path: 'vendor/lib',
        blobSha: SUBMODULE_ONE,
        mode: '160000',
        kind: 'submodule',
        size: 0,
      },
      head: {
        path: 'vendor/lib',
        blobSha: SUBMODULE_TWO,
        mode: '160000',
        kind: 'submodule',
        size: 0,
      },
    });
  });
});

describe('source text that git takes for binary', () => {
  it('reads source with a NUL byte as text, and says git calls it binary', () => {
    expect(file('src/nul-comment.ts').head).toEqual({
      path: 'src/nul-comment.ts',
      blobSha: repo.git('rev-parse', `${head}:src/nul-comment.ts`),
      mode: '100644',
      kind: 'text',
      size: Buffer.byteLength(NUL_IN_COMMENT),
      text: NUL_IN_COMMENT,
      validUtf8: true,
      binaryToGit: true,
    });
  });

  it('decodes source with a UTF-16 byte order mark, either byte order', () => {
    for (const path of ['src/utf16le.ts', 'src/utf16be.ts']) {
      expect(file(path).head).toMatchObject({
        kind: 'text',
        text: `\uFEFF${SOURCE}`,
        validUtf8: false,
        binaryToGit: true,
        size: 2 * (SOURCE.length + 1),
      });
    }
  });

  it('keeps the NUL rule for a language AUREUS does not read, and for bytes that are no text', () => {
    expect(file('notes-utf16.txt').head?.kind).toBe('binary');
    expect(file('src/logo.ts').head).toEqual({
      path: 'src/logo.ts',
      blobSha: repo.git('rev-parse', `${head}:src/logo.ts`),
      mode: '100644',
      kind: 'binary',
      size: PNG.length,
    });
    expect(file('src/noise.py').head?.kind).toBe('binary');
  });
});

describe('submodules and damaged repositories', () => {
  it('reports a submodule move even when .gitmodules says ignore = all', async () => {
    const hidden = await makeRepo('ignore-all');
    try {
      mkdirSync(join(hidden.dir, 'sub'));
      hidden.git('update-index', '--add', '--cacheinfo', `160000,${SUBMODULE_ONE},sub`);
      hidden.write('.gitmodules', '[submodule "sub"]\n\tpath = sub\n\turl = ./x\n\tignore = all\n');
      const one = hidden.commit('one');
      hidden.git('update-index', '--cacheinfo', `160000,${SUBMODULE_TWO},sub`);
      hidden.git('commit', '--quiet', '-m', 'two');
      const moved = await readChange(hidden.dir, { kind: 'range', base: one, head: 'HEAD' });
      expect(moved.files.map((f) => [f.path, f.head?.blobSha])).toEqual([['sub', SUBMODULE_TWO]]);
    } finally {
      await hidden.remove();
    }
  });

  it('marks the change incomplete, with a note, when a blob is missing from the repository', async () => {
    const damaged = await makeRepo('missing-blob');
    try {
      damaged.write('a.txt', 'one\n');
      const one = damaged.commit('one');
      damaged.write('a.txt', 'two\n');
      const two = damaged.commit('two');
      const blob = damaged.git('rev-parse', `${two}:a.txt`);
      rmSync(join(damaged.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
      const broken = await readChange(damaged.dir, { kind: 'range', base: one, head: two });
      expect(broken.complete).toBe(false);
      expect(broken.notes).toEqual([`a.txt could not be read: git has no object ${blob} for it.`]);
      expect(broken.files[0]?.base?.text).toBe('one\n');
      expect(broken.files[0]?.head?.text).toBeUndefined();
    } finally {
      await damaged.remove();
    }
  });
});

describe('symlinks and large files in the working tree', () => {
  it('reads a tracked file turned into a link to /etc/passwd as a link, never following it', async () => {
    const local = await makeRepo('worktree-link');
    try {
      local.write('src/a.ts', 'export const a = 1;\n');
      local.commit('one');
      rmSync(join(local.dir, 'src/a.ts'));
      local.symlink('/etc/passwd', 'src/a.ts');
      const worktree = await readChange(local.dir, { kind: 'worktree' });
      const link = file('src/a.ts', worktree);
      expect(link.status).toBe('type-changed');
      expect(link.head).toEqual({
        path: 'src/a.ts',
        // git's id for a link is the hash of its target string.
        blobSha: local.hashText('/etc/passwd'),
        mode: '120000',
        kind: 'symlink',
        size: '/etc/passwd'.length,
      });
      expect(JSON.stringify(worktree)).not.toContain(passwd.slice(0, 20));
    } finally {
      await local.remove();
    }
  });

  it('hashes a working-tree file over the limit without reading it into the change', async () => {
    const local = await makeRepo('worktree-big');
    try {
      local.write('big.txt', 'small\n');
      local.commit('one');
      local.write('big.txt', 'y'.repeat(3 * 1024 * 1024));
      const worktree = await readChange(local.dir, { kind: 'worktree' }, { maxBlobBytes: 1024 });
      expect(file('big.txt', worktree).head).toEqual({
        path: 'big.txt',
        blobSha: local.git('hash-object', 'big.txt'),
        mode: '100644',
        kind: 'too-large',
        size: 3 * 1024 * 1024,
      });
      expect(worktree.complete).toBe(true);
    } finally {
      await local.remove();
    }
  });
});
