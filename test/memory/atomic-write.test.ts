import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { writeCacheFile, writeFileAtomic } from '../../src/memory/atomic-write.js';

const writeInChild = fileURLToPath(new URL('./support/write-atomic.mjs', import.meta.url));

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aureus-atomic-'));
});

afterEach(async () => {
  await chmod(join(dir, 'locked'), 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('writeCacheFile (atomic for readers, not fsynced)', () => {
  it('replaces the whole content, one complete version among racing writers, no temporary file', async () => {
    const target = join(dir, 'entry.json');
    await writeCacheFile(target, `${'long old content\n'.repeat(1000)}`);
    const versions = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(5000)}\n`);
    await Promise.all(versions.map((data) => writeCacheFile(target, data)));
    expect(versions).toContain(await readFile(target, 'utf8'));
    expect(await readdir(dir)).toEqual(['entry.json']);
  });

  it('fails as writeFileAtomic does: a missing directory, a directory in the way', async () => {
    await expect(writeCacheFile(join(dir, 'missing', 'x'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken', 'inside.txt'), 'kept');
    await expect(writeCacheFile(join(dir, 'taken'), 'new')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/),
    });
    expect(await readdir(dir)).toEqual(['taken']);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the whole content and leaves no temporary file', async () => {
    const target = join(dir, 'policy.yaml');
    await writeFileAtomic(target, `${'long old content\n'.repeat(1000)}`);
    await writeFileAtomic(target, 'short\n');
    expect(await readFile(target, 'utf8')).toBe('short\n');
    await writeFileAtomic(target, new Uint8Array([0xe2, 0x82, 0xac, 0x0a]));
    expect(await readFile(target, 'utf8')).toBe('€\n');
    expect(await readdir(dir)).toEqual(['policy.yaml']);
  });

  it('leaves one complete version when many writers race', async () => {
    const target = join(dir, 'state.json');
    const versions = Array.from({ length: 20 }, (_, i) => `${String(i).repeat(5000)}\n`);
    await Promise.all(versions.map((data) => writeFileAtomic(target, data)));
    expect(versions).toContain(await readFile(target, 'utf8'));
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('does not create a missing directory: it fails with ENOENT', async () => {
    const target = join(dir, 'missing', 'file.txt');
    await expect(writeFileAtomic(target, 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('fails on a rename onto a directory, which stays as it was, with no temporary file left', async () => {
    const target = join(dir, 'taken');
    await mkdir(target);
    await writeFile(join(target, 'inside.txt'), 'kept');
    await expect(writeFileAtomic(target, 'new')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EISDIR|ENOTEMPTY|EEXIST|EPERM)$/),
    });
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(target, 'inside.txt'), 'utf8')).toBe('kept');
  });

  it('fails in a directory it may not write to, leaving the old file intact', async () => {
    if (process.platform === 'win32') return;
    const locked = join(dir, 'locked');
    const target = join(locked, 'ledger.json');
    await mkdir(locked);
    await writeFile(target, 'old');
    await chmod(locked, 0o555);
    // Root ignores permissions, so the write then runs as the unprivileged user `nobody`.
    const isRoot = process.getuid?.() === 0;
    if (isRoot) {
      await chmod(dir, 0o755);
      const child = spawnSync(process.execPath, [writeInChild, target, 'new'], {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
      });
      if (child.status !== 1) throw new Error(`write-atomic.mjs failed: ${child.stderr}`);
      expect({ status: child.status, out: child.stdout.trim() }).toEqual({
        status: 1,
        out: 'EACCES',
      });
    } else {
      await expect(writeFileAtomic(target, 'new')).rejects.toMatchObject({ code: 'EACCES' });
    }
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(locked)).toEqual(['ledger.json']);
  });
});
