import { chmodSync, mkdirSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { effectFindings } from '../../src/agent/effect-critic.js';
import {
  type Checkpointer,
  checkpointer,
  type RunPlace,
  rollback,
  snapshotTree,
  type TakenCheckpoint,
} from '../../src/agent/safety/checkpoints.js';
import { policyFrom } from '../critic/critic-support.js';
import { makeRepo, type Repo, repoAt } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

let repo: Repo & { remove(): Promise<void> };
let run: RunPlace;
let tree: Repo;

beforeAll(async () => {
  repo = await makeRepo('quick-checkpoints');
  repo.write('.gitignore', 'build/\n*.log\n');
  repo.write('.gitattributes', '*.dat ident\n');
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.write('src/b.ts', 'export const b = 1;\n');
  repo.write('src/deep/c.ts', 'export const c = 1;\n');
  repo.write('data/blob.bin', Buffer.from([0, 1, 2, 3, 0, 255]));
  repo.write('data/stamp.dat', 'version $Id$\n');
  repo.write('run.sh', '#!/bin/sh\necho run\n');
  chmodSync(join(repo.dir, 'run.sh'), 0o755);
  repo.symlink('src/a.ts', 'link-to-a');
  repo.commit('base');
  const dir = join(repo.dir, '.git', 'aureus', 'runs', 'q1');
  mkdirSync(join(dir, 'private'), { recursive: true });
  repo.git('worktree', 'add', '--quiet', '-b', 'aureus/task-q1', join(dir, 'tree'), 'HEAD');
  run = { id: 'q1', tree: join(dir, 'tree'), dir: join(dir, 'private') };
  tree = repoAt(run.tree);
  tree.write('build/out.js', 'ignored\n');
});

afterAll(() => repo.remove());

/**
 * Takes a checkpoint and holds it to git's own snapshot of the same tree (read-tree HEAD,
 * add --all, write-tree through a fresh index): the same tree id, every object present, the
 * run's HEAD its parent. Returns it, `quick` telling whether it was taken without git.
 */
async function taken(take: Checkpointer, label: string): Promise<TakenCheckpoint> {
  const checkpoint = await take(label);
  rmSync(join(run.dir, `snapshot-${process.pid}.index`), { force: true });
  expect(checkpoint.tree).toBe(await snapshotTree(run));
  expect(tree.git('rev-parse', `${checkpoint.commit}^{tree}`)).toBe(checkpoint.tree);
  expect(tree.git('rev-parse', `${checkpoint.commit}^`)).toBe(tree.git('rev-parse', 'HEAD'));
  expect(tree.git('rev-parse', checkpoint.ref)).toBe(checkpoint.commit);
  // Every object of the commit can be read: the loose objects written here are git's.
  tree.git('fsck', '--no-progress', '--connectivity-only', '--no-dangling', checkpoint.commit);
  if (checkpoint.files !== undefined) {
    const listed = tree.git('ls-tree', '-r', '-z', checkpoint.tree).split('\0').filter(Boolean);
    expect(
      checkpoint.files.map((file) => `${file.mode} blob ${file.blobSha}\t${file.path}`).sort(),
    ).toEqual(listed.sort());
  }
  return checkpoint;
}

const quick = (checkpoint: TakenCheckpoint): boolean => checkpoint.files !== undefined;

describe('checkpoints taken without git', () => {
  it('equal git snapshots when files are written, deleted, touched or binary', async () => {
    const take = checkpointer(run);
    expect(quick(await taken(take, 'first: git takes it'))).toBe(false);

    tree.write('src/a.ts', 'export const a = 2;\n');
    expect(quick(await taken(take, 'modified'))).toBe(true);

    unlinkSync(join(run.tree, 'src/deep/c.ts'));
    expect(quick(await taken(take, 'deleted, its folder emptied'))).toBe(true);

    tree.write('data/blob.bin', Buffer.from([0, 9, 9, 9, 0, 254, 7]));
    expect(quick(await taken(take, 'binary rewritten'))).toBe(true);

    const { mtime } = statSync(join(run.tree, 'src/b.ts'));
    utimesSync(join(run.tree, 'src/b.ts'), mtime, new Date(mtime.getTime() + 5000));
    expect(quick(await taken(take, 'touched, same bytes'))).toBe(true);

    tree.write('build/more.js', 'still ignored\n');
    tree.write('src/debug.log', 'ignored by pattern, but new to the record\n');
    const ignoredNew = await taken(take, 'new ignored file');
    expect(ignoredNew.files?.some((file) => file.path.startsWith('build/'))).not.toBe(true);

    tree.write('src/a.ts', 'export const a = 3;\n');
    expect(quick(await taken(take, 'after git took one again'))).toBe(true);
  });

  it('keep the trees of the folders nothing changed in, and still equal git snapshots', async () => {
    tree.write('src/deep/er/d.ts', 'export const d = 1;\n');
    tree.write('lib/e.ts', 'export const e = 1;\n');
    const take = checkpointer(run);
    expect(quick(await taken(take, 'git takes the first'))).toBe(false);
    // One folder after another, the deepest, a sibling, the root, one that had changed before.
    const steps: Array<[string, string | null]> = [
      ['src/deep/er/d.ts', 'export const d = 2;\n'],
      ['lib/e.ts', 'export const e = 2;\n'],
      ['run.sh', '#!/bin/sh\necho changed\n'],
      ['src/deep/er/d.ts', 'export const d = 3;\n'],
      ['src/deep/er/d.ts', 'export const d = 1;\n'],
      ['lib/e.ts', null],
      ['src/b.ts', 'export const b = 2;\n'],
    ];
    for (const [path, text] of steps) {
      if (text === null) unlinkSync(join(run.tree, path));
      else tree.write(path, text);
      expect(quick(await taken(take, `${path}: ${text ?? 'deleted'}`))).toBe(true);
    }
    // Nothing changed at all: the same tree again.
    const last = await taken(take, 'nothing changed');
    expect((await taken(take, 'nothing changed again')).tree).toBe(last.tree);
  });

  it('leave to git what git decides, and still equal its snapshot', async () => {
    const take = checkpointer(run);
    await taken(take, 'first');
    const gitTakes = async (label: string) => {
      expect(quick(await taken(take, label))).toBe(false);
      // The one after is quick again: git's snapshot renewed the record.
      tree.write('src/b.ts', `export const b = ${JSON.stringify(label)};\n`);
      expect(quick(await taken(take, `${label}, then a write`))).toBe(true);
    };

    tree.git('mv', 'src/b.ts', 'src/renamed.ts');
    tree.write('src/b.ts', 'export const b = 0;\n');
    await gitTakes('renamed: a new path');

    tree.write('src/new.ts', 'export const n = 1;\n');
    await gitTakes('created');

    unlinkSync(join(run.tree, 'link-to-a'));
    tree.symlink('src/renamed.ts', 'link-to-a');
    await gitTakes('link retargeted');

    tree.write('data/stamp.dat', 'version $Id: forged $\n');
    await gitTakes('a file with attributes (ident)');

    tree.write('src/a.ts', 'export const a = 4;\r\n');
    await gitTakes('a carriage return');

    chmodSync(join(run.tree, 'src/a.ts'), 0o755);
    await gitTakes('executable bit');

    tree.write('.gitignore', 'build/\n*.log\nsrc/new.ts\n');
    await gitTakes('.gitignore changed');

    tree.write('src/a.ts', 'export const a = 5;\n');
    tree.commit('the builder commits');
    await gitTakes('HEAD moved');

    // `build/` ignores a folder only: a file of that name is the tree's.
    rmSync(join(run.tree, 'build'), { recursive: true });
    tree.write('build', 'a file where an ignored folder was\n');
    await gitTakes('an ignored folder turned into a file');

    repo.git('config', 'core.excludesFile', join(run.dir, 'nothing'));
    await gitTakes('git config changed');
  });

  it('see a same-size rewrite whose mtime was put back (ctime and the racy rule)', async () => {
    const take = checkpointer(run);
    const path = join(run.tree, 'src/a.ts');
    tree.write('src/a.ts', 'export const a = 6;\n');
    await taken(take, 'first');
    const { atime, mtime } = statSync(path);
    tree.write('src/a.ts', 'export const a = 7;\n');
    utimesSync(path, atime, mtime);
    const after = await taken(take, 'forged mtime');
    expect(tree.git('show', `${after.commit}:src/a.ts`)).toBe('export const a = 7;');
    // Rewritten at once, within the same clock tick: the racy rule hashes it again.
    tree.write('src/a.ts', 'export const a = 8;\n');
    const again = await taken(take, 'same tick');
    tree.write('src/a.ts', 'export const a = 9;\n');
    const third = await taken(take, 'same tick again');
    expect(tree.git('show', `${again.commit}:src/a.ts`)).toBe('export const a = 8;');
    expect(tree.git('show', `${third.commit}:src/a.ts`)).toBe('export const a = 9;');
  });

  it('roll back to a quick checkpoint, and give the critic the same findings as git', async () => {
    const take = checkpointer(run);
    await taken(take, 'first');
    tree.write('src/a.ts', 'export const a = 10;\n');
    const quickOne = await taken(take, 'quick');
    expect(quick(quickOne)).toBe(true);
    tree.write('src/a.ts', 'export const a = 11;\n');
    await rollback(run, quickOne.n);
    expect(tree.git('show', `${quickOne.commit}:src/a.ts`)).toBe('export const a = 10;');
    expect(statSync(join(run.tree, 'src/a.ts')).size).toBe('export const a = 10;\n'.length);

    const policy = policyFrom('forbidden_patterns:\n  god_class:\n    max_loc: 6\n');
    const settings = { root: repo.dir, tree: run.tree, startCommit: 'HEAD', policy };
    const god = `export class Big {\n${Array.from({ length: 9 }, (_, i) => `  m${i}() { return ${i}; }\n`).join('')}}\n`;
    const effects = [{ path: 'src/a.ts', before: 'export const a = 10;\n', after: god }];
    const withListing = await effectFindings(settings)(effects, quickOne);
    const fromGit = await effectFindings(settings)(effects, {
      commit: quickOne.commit,
      tree: quickOne.tree,
    });
    expect(withListing).toEqual(fromGit);
    expect(withListing.some((finding) => finding.ruleId === 'god_class')).toBe(true);
  });
});
