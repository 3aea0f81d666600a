import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ContainedDisk, containedDisk } from '../../src/git/contained-file.js';
import { makeTempDir } from '../support/temp-dir.js';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let disk: ContainedDisk;
let root: string;

const LINK = 'it is a symbolic link, which AUREUS does not follow';

beforeAll(async () => {
  temp = await makeTempDir('contained-disk');
  root = join(temp.path, 'repo');
  const outside = join(temp.path, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'node_modules', '.pnpm', 'pkg'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.ts'), 'SECRET\n');
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'big.ts'), 'x'.repeat(101));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  writeFileSync(join(root, 'node_modules', '.pnpm', 'pkg', 'index.d.ts'), 'export {};\n');
  symlinkSync('.pnpm/pkg', join(root, 'node_modules', 'pkg'));
  symlinkSync('/dev/zero', join(root, 'src', 'zero.ts'));
  symlinkSync(join(outside, 'secret.ts'), join(root, 'src', 'out.ts'));
  symlinkSync('a.ts', join(root, 'src', 'inside.ts'));
  symlinkSync(outside, join(root, 'lib'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
  expect(spawnSync('mkfifo', [join(root, 'src', 'pipe.ts')]).status).toBe(0);
  disk = containedDisk(root, 100);
});

afterAll(() => temp.remove());

describe('containedDisk', () => {
  it('reads a regular file inside the repository, by relative or absolute path', () => {
    expect(disk.read('src/a.ts')).toEqual({
      ok: true,
      bytes: Buffer.from('export const a = 1;\n'),
    });
    expect(disk.read(join(root, 'src', 'a.ts')).ok).toBe(true);
    expect(disk.kind('src/a.ts')).toBe('file');
  });

  it('never follows a link in a file’s place, wherever it leads', () => {
    for (const path of ['src/zero.ts', 'src/out.ts', 'src/inside.ts'])
      expect([path, disk.read(path)]).toEqual([path, { ok: false, reason: LINK }]);
    expect(disk.kind('src/zero.ts')).toBeUndefined();
  });

  it('refuses a FIFO without blocking on it', () => {
    expect(disk.read('src/pipe.ts')).toEqual({
      ok: false,
      reason: 'it is a FIFO (named pipe), not a regular file',
    });
  });

  it('reads no more than its limit', () => {
    expect(disk.read('src/big.ts')).toEqual({
      ok: false,
      reason: 'it is over the read limit of 100 bytes',
    });
  });

  it('refuses what is outside the repository, through a folder link or a loop, or in .git', () => {
    expect(disk.read('lib/secret.ts')).toEqual({
      ok: false,
      reason: 'a folder on its path leads out of the repository',
    });
    expect(disk.kind('lib')).toBeUndefined();
    expect(disk.read('loop-a/x.ts')).toEqual({
      ok: false,
      reason: 'a folder on its path is a loop of symbolic links',
    });
    expect(disk.read('../outside/secret.ts')).toEqual({
      ok: false,
      reason: 'it is outside the repository',
    });
    expect(disk.read('.git/config')).toEqual({
      ok: false,
      reason: "it is in the repository's .git folder",
    });
  });

  it('follows a folder link that stays inside, as package managers lay out node_modules', () => {
    expect(disk.kind('node_modules/pkg')).toBe('folder');
    expect(disk.read('node_modules/pkg/index.d.ts').ok).toBe(true);
    expect(disk.realpath(join(root, 'node_modules', 'pkg'))).toBe(
      realpathSync(join(root, 'node_modules', '.pnpm', 'pkg')),
    );
    expect(disk.list('node_modules')).toEqual(
      expect.arrayContaining([
        { name: '.pnpm', kind: 'folder' },
        { name: 'pkg', kind: 'folder' },
      ]),
    );
    expect(disk.list('.').map((entry) => entry.name)).not.toContain('lib');
  });
});
