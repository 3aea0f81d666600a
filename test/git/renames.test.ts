import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readChange } from '../../src/git/index.js';
import type { Change } from '../../src/model/change.js';
import { isolateGit, makeRepo, numberedLines, type Repo } from '../support/git-fixture.js';

/**
 * git pairs a deletion and an addition as a rename when at least 50 % of the content survives
 * (`-M`'s default threshold). 100 lines of equal length make the similarity exactly the share
 * of lines kept: 51 kept is a rename, 49 kept is a deletion plus an addition.
 */
let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let change: Change;

function keepLines(kept: number, label: string): string {
  const original = numberedLines(100, label).split('\n').slice(0, 100);
  const replaced = numberedLines(100, label.toUpperCase().replace(/./g, 'Z')).split('\n');
  return `${[...original.slice(0, kept), ...replaced.slice(kept, 100)].join('\n')}\n`;
}

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('renames');
  repo.write('moved-as-is.ts', numberedLines(100, 'same'));
  repo.write('half-kept-51.ts', numberedLines(100, 'fifty-one'));
  repo.write('half-kept-49.ts', numberedLines(100, 'forty-nine'));
  const base = repo.commit('base');
  repo.git('rm', '--quiet', 'moved-as-is.ts', 'half-kept-51.ts', 'half-kept-49.ts');
  repo.write('lib/moved.ts', numberedLines(100, 'same'));
  repo.write('renamed-51.ts', keepLines(51, 'fifty-one'));
  repo.write('renamed-49.ts', keepLines(49, 'forty-nine'));
  const head = repo.commit('moves');
  change = await readChange(repo.dir, { kind: 'range', base, head });
});

afterAll(async () => {
  await repo.remove();
  await restore();
});

describe('rename detection', () => {
  it('reports a pure move as renamed at 100 % with the same blob on both sides', () => {
    const moved = change.files.find((f) => f.path === 'lib/moved.ts');
    expect(moved).toMatchObject({ status: 'renamed', oldPath: 'moved-as-is.ts', similarity: 100 });
    expect(moved?.base?.path).toBe('moved-as-is.ts');
    expect(moved?.head?.path).toBe('lib/moved.ts');
    expect(moved?.head?.blobSha).toBe(moved?.base?.blobSha);
  });

  it('reports a 51 %-similar file as renamed, with both versions for the content delta', () => {
    const renamed = change.files.find((f) => f.path === 'renamed-51.ts');
    expect(renamed).toMatchObject({
      status: 'renamed',
      oldPath: 'half-kept-51.ts',
      similarity: 51,
    });
    expect(renamed?.base?.text).toBe(numberedLines(100, 'fifty-one'));
    expect(renamed?.head?.text).toBe(keepLines(51, 'fifty-one'));
  });

  it('reports a 49 %-similar file as a deletion plus an addition', () => {
    expect(change.files.map((f) => [f.path, f.status])).toEqual([
      ['half-kept-49.ts', 'deleted'],
      ['lib/moved.ts', 'renamed'],
      ['renamed-49.ts', 'added'],
      ['renamed-51.ts', 'renamed'],
    ]);
    expect(change.files.find((f) => f.path === 'renamed-49.ts')?.oldPath).toBeUndefined();
  });
});

describe('when git gives up on rename detection', () => {
  it('counts the files as deletions plus additions and says why in a note', async () => {
    const many = await makeRepo('rename-limit');
    try {
      many.git('config', 'diff.renameLimit', '1');
      for (const name of ['a', 'b', 'c']) many.write(`${name}.ts`, numberedLines(20, name));
      const base = many.commit('three');
      many.git('rm', '--quiet', 'a.ts', 'b.ts', 'c.ts');
      for (const name of ['a', 'b', 'c']) {
        many.write(`moved/${name}.ts`, `${numberedLines(20, name)}// edited\n`);
      }
      const head = many.commit('moved and edited');
      const moved = await readChange(many.dir, { kind: 'range', base, head });
      expect(moved.files.map((f) => f.status).sort()).toEqual([
        'added',
        'added',
        'added',
        'deleted',
        'deleted',
        'deleted',
      ]);
      expect(moved.complete).toBe(true);
      expect(moved.notes).toEqual([expect.stringContaining('diff.renameLimit')]);
    } finally {
      await many.remove();
    }
  });
});
