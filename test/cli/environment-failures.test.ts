import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  aureus as aureusNow,
  commit,
  makeNodeRepo,
  type NodeRepo,
  useHookTestEnvironment,
} from '../hooks/hook-fixture.js';
import { useAureusProcesses } from '../support/aureus-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * The machine AUREUS runs on, not the code it judges, stops it (THREATS row 38): a full disk, a
 * read-only mount, a folder it may not write, a FIFO where git tracks a file. Each is exit 2 with
 * the path, what happened and how to fix it, in the CLI and under a real `git commit` — never
 * "internal error … report the output". A disk cannot be filled or mounted read-only here, and a
 * folder of mode 0555 stops no one running as root: test/support/fail-writes.mjs makes every
 * write under one folder fail with the error the kernel would give.
 */

const FAIL_WRITES = pathToFileURL(resolve('test/support/fail-writes.mjs')).href;
const aureus = useAureusProcesses();
const repos: NodeRepo[] = [];
useHookTestEnvironment();
afterAll(async () => {
  for (const repo of repos.splice(0)) await repo.remove();
});

/** A repository AUREUS has run in before (its .aureus/local/ exists), with a small change. */
async function repoWithChange(prefix: string): Promise<NodeRepo> {
  const repo = await makeNodeRepo(prefix);
  repos.push(repo);
  mkdirSync(join(repo.dir, '.aureus', 'local'), { recursive: true });
  repo.write('src/small.ts', 'export const one = 1;\n');
  return repo;
}

/** The environment that makes every write under `folder` fail with `code`. */
const failingWrites = (folder: string, code: string) => ({
  NODE_OPTIONS: `--import=${FAIL_WRITES}`,
  AUREUS_TEST_FAIL_UNDER: folder,
  AUREUS_TEST_FAIL_CODE: code,
});

const CASES = [
  { code: 'ENOSPC', what: 'the disk is full', fix: 'free space on the disk that holds' },
  {
    code: 'EROFS',
    what: 'the file system is read-only',
    fix: 'remount read-write the file system that holds',
  },
  { code: 'EACCES', what: 'permission denied', fix: 'let this user write to' },
] as const;

const NOT_INTERNAL = /internal error|report the output/;

describe.each(CASES)('when writes to .aureus/local fail with $code', ({ code, what, fix }) => {
  it('aureus check exits 2 with the path, what happened and how to fix it', async () => {
    const repo = await repoWithChange(`env-${code}`);
    const local = join(repo.dir, '.aureus', 'local');
    const run = await aureus(repo.dir, ['check'], failingWrites(local, code));
    expect(run.stderr).not.toMatch(NOT_INTERNAL);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${local}/`);
    expect(run.stderr).toContain(`${what} (${code})`);
    expect(run.stderr).toMatch(new RegExp(`To resolve, ${fix} ${escapeRegExp(local)}`));
  });

  it('the pre-commit hook refuses the commit with the same message', async () => {
    const repo = await repoWithChange(`env-hook-${code}`);
    expect(aureusNow(repo.dir, ['hooks', 'install']).code).toBe(0);
    repo.git('add', '--all');
    const local = join(repo.dir, '.aureus', 'local');
    const result = commit(repo, ['-m', 'small'], failingWrites(local, code));
    expect(result.output).not.toMatch(NOT_INTERNAL);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`${what} (${code})`);
    expect(result.output).toMatch(new RegExp(`To resolve, ${fix} ${escapeRegExp(local)}`));
  });
});

describe('aureus check --output', () => {
  it('creates the folders that do not exist yet, as most tools do', async () => {
    const repo = await repoWithChange('output-missing');
    const run = await aureus(repo.dir, [
      'check',
      '--format',
      'json',
      '--output',
      'x/y/report.json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(repo.dir, 'x', 'y', 'report.json'), 'utf8'))).toMatchObject(
      { verdict: 'pass' },
    );
  });

  it('creates no folder through a link the repository commits, and writes nothing', async () => {
    const repo = await repoWithChange('output-linked-folder');
    const outside = await makeTempDir('output-outside');
    try {
      mkdirSync(join(outside.path, 'existing'));
      repo.symlink(outside.path, 'reports');
      repo.commit('reports link out');
      for (const path of ['reports/new/report.json', 'reports/existing/new/report.json']) {
        const run = await aureus(repo.dir, ['check', '--output', path]);
        expect(run.code).toBe(2);
        expect(run.stderr).toBe(
          `aureus: cannot create the folder ${join(repo.dir, dirname(path))}: ${join(repo.dir, 'reports')} is a symbolic link, and AUREUS creates no folder through a link.\nTo resolve, create the folder yourself, or point --output at a path with no symbolic link on the way.\n`,
        );
      }
      expect(readdirSync(outside.path)).toEqual(['existing']);
      expect(readdirSync(join(outside.path, 'existing'))).toEqual([]);
    } finally {
      await outside.remove();
    }
  });

  it('names a file where a folder should be', async () => {
    const repo = await repoWithChange('output-file-on-the-way');
    writeFileSync(join(repo.dir, 'notes'), 'a file\n');
    const run = await aureus(repo.dir, ['check', '--output', 'notes/sub/report.json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `aureus: cannot create the folder ${join(repo.dir, 'notes', 'sub')}: ${join(repo.dir, 'notes')} is a regular file, not a folder.\nTo resolve, point --output at a path whose folders are folders.\n`,
    );
  });

  it('names a folder it may not write', async () => {
    const repo = await repoWithChange('output-denied');
    const folder = join(repo.dir, 'reports');
    mkdirSync(folder);
    const target = join(folder, 'report.json');
    const run = await aureus(
      repo.dir,
      ['check', '--output', target],
      failingWrites(folder, 'EACCES'),
    );
    expect(run.stderr).not.toMatch(NOT_INTERNAL);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`aureus: cannot write ${target}: permission denied (EACCES).`);
    expect(run.stderr).toContain(`To resolve, let this user write to ${folder}`);
  });

  it('refuses a symbolic link, a FIFO and a folder in its place, and writes nothing', async () => {
    const repo = await repoWithChange('output-kinds');
    const elsewhere = join(repo.dir, 'elsewhere.json');
    writeFileSync(elsewhere, 'untouched\n');
    symlinkSync(elsewhere, join(repo.dir, 'link.json'));
    expect(spawnSync('mkfifo', [join(repo.dir, 'pipe.json')]).status).toBe(0);
    mkdirSync(join(repo.dir, 'folder.json'));
    const refusals = {
      'link.json': 'is a symbolic link; AUREUS never writes through a link',
      'pipe.json': 'is a FIFO (named pipe), not a regular file',
      'folder.json': 'is a folder, not a regular file',
    };
    for (const [name, why] of Object.entries(refusals)) {
      const target = join(repo.dir, name);
      const run = await aureus(repo.dir, ['check', '--output', target]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `aureus: ${target} ${why}.\nTo resolve, remove it, or point --output at another path.\n`,
      );
    }
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched\n');
  });
});

describe('a FIFO where git tracks a file', () => {
  it('makes the check incomplete (exit 2) and says which file and why', async () => {
    const repo = await repoWithChange('tracked-fifo');
    repo.commit('small');
    spawnSync('rm', [join(repo.dir, 'src', 'small.ts')]);
    expect(spawnSync('mkfifo', [join(repo.dir, 'src', 'small.ts')]).status).toBe(0);
    const run = await aureus(repo.dir, ['check']);
    expect(run.stderr).not.toMatch(NOT_INTERNAL);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(
      'src/small.ts could not be read at the head, so the analysis of the head lacks it: it is a FIFO (named pipe), not a regular file',
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
