import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  type Checkpoint,
  checkpointer,
  type RunPlace,
  rollback,
} from '../../src/agent/safety/checkpoints.js';
import { makeRepo, type Repo, repoAt } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

let repo: Repo & { remove(): Promise<void> };
let run: RunPlace;
let runRepo: Repo;

beforeAll(async () => {
  repo = await makeRepo('checkpoints');
  repo.write('.gitignore', 'build/\n');
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.write('src/b.ts', 'export const b = 1;\n');
  repo.commit('base');
  // The user has work of their own in progress: staged, unstaged and untracked.
  repo.write('src/a.ts', 'export const a = 2; // staged\n');
  repo.git('add', 'src/a.ts');
  repo.write('src/b.ts', 'export const b = 2; // unstaged\n');
  repo.write('notes.txt', 'mine\n');
  const dir = join(repo.dir, '.git', 'aureus', 'runs', 'r1');
  mkdirSync(dir, { recursive: true });
  repo.git('worktree', 'add', '--quiet', '-b', 'aureus/task-r1', join(dir, 'tree'), 'HEAD');
  run = { id: 'r1', tree: join(dir, 'tree'), dir };
  runRepo = repoAt(run.tree);
});

afterAll(() => repo.remove());

/** What a checkpoint records (its tree aside, which only its taker is told). */
const recorded = ({ n, label, commit, ref }: Checkpoint): Checkpoint => ({ n, label, commit, ref });

/** Every file of the tree but .git, with its bytes. */
function files(root: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (name === '.git') continue;
      if (statSync(path).isDirectory()) walk(path);
      else found[relative(root, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return found;
}

describe('checkpoint and rollback', () => {
  it('restore the run tree exactly, and never touch the user index, branch or files', async () => {
    const userIndex = readFileSync(join(repo.dir, '.git', 'index'));
    const userStatus = repo.git('status', '--porcelain=v1', '--untracked-files=all');
    const userHead = repo.git('rev-parse', 'HEAD', 'main');

    runRepo.write('src/a.ts', 'export const a = 10;\n');
    runRepo.write('src/new.ts', 'export const n = 1;\n');
    const take = checkpointer(run);
    const first = await take('before edits');
    const at1 = files(run.tree);
    expect(first).toMatchObject({
      n: 1,
      ref: 'refs/aureus/runs/r1/checkpoints/1',
      label: 'before edits',
    });

    runRepo.write('src/new.ts', 'export const n = 2;\n');
    runRepo.write('src/later.ts', 'export const later = 1;\n');
    runRepo.git('rm', '--quiet', 'src/b.ts');
    runRepo.commit('builder commit after the checkpoint');
    runRepo.write('build/out.js', 'ignored\n');
    const second = await take('after edits');
    expect(second.n).toBe(2);

    expect(await rollback(run, 1)).toEqual(recorded(first));
    expect(files(run.tree)).toEqual({ ...at1, 'build/out.js': 'ignored\n' });
    expect(runRepo.git('rev-parse', 'HEAD')).toBe(userHead.split('\n')[0]);

    expect(readFileSync(join(repo.dir, '.git', 'index')).equals(userIndex)).toBe(true);
    expect(repo.git('status', '--porcelain=v1', '--untracked-files=all')).toBe(userStatus);
    expect(repo.git('rev-parse', 'HEAD', 'main')).toBe(userHead);
    expect(repo.git('symbolic-ref', 'HEAD')).toBe('refs/heads/main');

    expect(await rollback(run, 2)).toEqual(recorded(second));
    expect(runRepo.git('show', 'HEAD:src/later.ts')).toBe('export const later = 1;');
    expect(files(run.tree)['src/b.ts']).toBeUndefined();
  });

  it('hold the tree as it is now, whatever the checkpoints before it held', async () => {
    // A file a checkpoint held, then ignored: each checkpoint is the tree as a fresh snapshot
    // of it would be, never what an earlier one carried over.
    const take = checkpointer(run);
    runRepo.write('gen/out.ts', 'export const generated = 1;\n');
    const held = await take('generated file');
    expect(runRepo.git('ls-tree', '-r', '--name-only', held.commit)).toContain('gen/out.ts');
    runRepo.write('.gitignore', 'build/\ngen/\n');
    const ignored = await take('generated file ignored');
    expect(runRepo.git('ls-tree', '-r', '--name-only', ignored.commit)).not.toContain('gen/');

    // A file changed within the same second keeps the same size: its content decides.
    runRepo.write('src/same.ts', 'export const s = 1;\n');
    const one = await take('one');
    runRepo.write('src/same.ts', 'export const s = 2;\n');
    // Another process of the run took the next number meanwhile.
    runRepo.git('update-ref', `refs/aureus/runs/r1/checkpoints/${one.n + 1}`, one.commit);
    const two = await take('two');
    expect(runRepo.git('show', `${one.commit}:src/same.ts`)).toBe('export const s = 1;');
    expect(runRepo.git('show', `${two.commit}:src/same.ts`)).toBe('export const s = 2;');
    expect(two).toMatchObject({
      n: one.n + 2,
      ref: `refs/aureus/runs/r1/checkpoints/${one.n + 2}`,
    });
    expect(runRepo.git('rev-parse', two.ref)).toBe(two.commit);
  });
});
