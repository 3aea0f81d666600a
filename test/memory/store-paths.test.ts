import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { LocalStoreRefused } from '../../src/memory/local-store-refused.js';
import { checkedLocalDir, ensureLocalDir, storePaths } from '../../src/memory/store-paths.js';
import { AureusError } from '../../src/model/errors.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'aureus-store-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('storePaths', () => {
  it('places every file under <root>/.aureus, local runs under .aureus/local', () => {
    expect(storePaths('/repo')).toEqual({
      dir: resolve('/repo/.aureus'),
      policy: resolve('/repo/.aureus/policy.yaml'),
      localDir: resolve('/repo/.aureus/local'),
      ledger: resolve('/repo/.aureus/local/ledger.jsonl'),
    });
  });

  it('returns absolute paths for a relative root', () => {
    const paths = storePaths('some/repo');
    expect(paths.ledger).toBe(resolve('some/repo/.aureus/local/ledger.jsonl'));
  });
});

describe('ensureLocalDir', () => {
  it('creates .aureus/local with a .gitignore that ignores the folder itself', async () => {
    const localDir = await ensureLocalDir(root);
    expect(localDir).toBe(storePaths(root).localDir);
    expect(await readFile(join(localDir, '.gitignore'), 'utf8')).toBe('*\n');
    expect(await readdir(root)).toEqual(['.aureus']);
  });

  it('is idempotent and keeps a .gitignore the user changed', async () => {
    await ensureLocalDir(root);
    const gitignore = join(storePaths(root).localDir, '.gitignore');
    await writeFile(gitignore, '*\n!keep.txt\n');
    await ensureLocalDir(root);
    expect(await readFile(gitignore, 'utf8')).toBe('*\n!keep.txt\n');
  });

  it('makes git ignore local ledgers but not the committed store', async () => {
    const hasGit = spawnSync('git', ['--version']).status === 0;
    if (!hasGit) return;
    execFileSync('git', ['init', '-q', root]);
    await writeFile(join(root, '.gitignore'), 'node_modules/\n');
    await ensureLocalDir(root);
    const paths = storePaths(root);
    const ignored = (path: string) =>
      spawnSync('git', ['-C', root, 'check-ignore', '-q', path]).status === 0;

    expect(ignored(paths.ledger)).toBe(true);
    expect(ignored(`${paths.ledger}.bak-20260101T000000Z`)).toBe(true);
    expect(ignored(join(paths.localDir, '.gitignore'))).toBe(true);
    expect(ignored(paths.policy)).toBe(false);
    expect(ignored(join(paths.dir, 'patterns.json'))).toBe(false);
    expect(await readFile(join(root, '.gitignore'), 'utf8')).toBe('node_modules/\n');
  });

  it('refuses a .aureus/local the repository tracks, and writes nothing into it', async () => {
    execFileSync('git', ['init', '-q', root]);
    const forged = join(root, '.aureus', 'local', 'ledger.jsonl');
    await mkdir(join(root, '.aureus', 'local'), { recursive: true });
    await writeFile(forged, 'planted\n');
    execFileSync('git', ['-C', root, 'add', '--force', '.aureus/local/ledger.jsonl']);
    await expect(ensureLocalDir(root)).rejects.toThrow(LocalStoreRefused);
    await expect(checkedLocalDir(root)).rejects.toThrow(
      /tracks \.aureus\/local\/ledger\.jsonl, but .* neither reads nor writes tracked files there/,
    );
    expect(await readdir(join(root, '.aureus', 'local'))).toEqual(['ledger.jsonl']);
    // Untracked again, the folder is AUREUS's.
    execFileSync('git', ['-C', root, 'rm', '-q', '--cached', '.aureus/local/ledger.jsonl']);
    expect(await ensureLocalDir(root)).toBe(storePaths(root).localDir);
  });

  it('refuses a .aureus that is a link or a file', async () => {
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(root, '.aureus'));
    await expect(ensureLocalDir(root)).rejects.toThrow(/\.aureus is a symbolic link/);
    expect(await readdir(elsewhere)).toEqual([]);
    await rm(join(root, '.aureus'));
    await writeFile(join(root, '.aureus'), '');
    await expect(checkedLocalDir(root)).rejects.toThrow(/\.aureus is not a folder/);
  });

  it('refuses a .aureus/local that is a symlink', async () => {
    const elsewhere = join(root, 'elsewhere');
    await mkdir(elsewhere);
    await mkdir(join(root, '.aureus'));
    await symlink(elsewhere, join(root, '.aureus', 'local'));
    await expect(ensureLocalDir(root)).rejects.toThrow(AureusError);
    await expect(ensureLocalDir(root)).rejects.toThrow(/symbolic link/);
    expect(await readdir(elsewhere)).toEqual([]);
  });
});
