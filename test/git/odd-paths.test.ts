import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listTrackedFiles, readChange } from '../../src/git/index.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';

/** Names that break any reader that splits on whitespace or newlines, or passes them to a shell. */
const ODD_NAMES = [
  'with space.txt',
  'ünïcödé/日本語 ファイル.txt',
  `quote"and'apostrophe.txt`,
  'new\nline.txt',
  '-leading-dash.txt',
  '--output=evil.txt',
  'tab\there.txt',
  'back\\slash.txt',
  '$(touch pwned).txt',
  ':colon-first.txt',
];

let restore: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let base: string;

beforeAll(async () => {
  restore = await isolateGit();
  repo = await makeRepo('odd-paths');
  for (const [index, name] of ODD_NAMES.entries()) repo.write(name, `version one of ${index}\n`);
  base = repo.commit('odd names');
  for (const [index, name] of ODD_NAMES.entries()) repo.write(name, `version two of ${index}\n`);
});

afterAll(async () => {
  await repo.remove();
  await restore();
});

describe('paths git would quote', () => {
  it('come through a working-tree change exactly, read from disk by their real names', async () => {
    const change = await readChange(repo.dir, { kind: 'worktree' });
    expect(change.complete).toBe(true);
    expect(change.files.map((f) => f.path)).toEqual([...ODD_NAMES].sort());
    for (const changed of change.files) {
      const index = ODD_NAMES.indexOf(changed.path);
      expect(changed.head?.text).toBe(`version two of ${index}\n`);
      expect(changed.base?.text).toBe(`version one of ${index}\n`);
    }
    expect(existsSync(join(repo.dir, 'pwned'))).toBe(false);
  });

  // Runs after the test above: it commits the second versions.
  it('come through a staged change and a rename exactly', async () => {
    repo.commit('version two');
    repo.git('mv', '--', '-leading-dash.txt', '-renamed with\nnewline.txt');
    const change = await readChange(repo.dir, { kind: 'staged' });
    const renamed = change.files.find((f) => f.status === 'renamed');
    expect(renamed).toMatchObject({
      path: '-renamed with\nnewline.txt',
      oldPath: '-leading-dash.txt',
    });
    expect(change.files).toHaveLength(1);
    expect(renamed?.head?.text).toBe(`version two of ${ODD_NAMES.indexOf('-leading-dash.txt')}\n`);
  });

  it('are listed exactly by listTrackedFiles', async () => {
    const listed = await listTrackedFiles(repo.dir, base);
    expect(listed.map((f) => f.path)).toEqual([...ODD_NAMES].sort());
  });

  it('are listed by listTrackedFiles with every byte kept when one name is not UTF-8', async () => {
    const mixed = await makeRepo('mixed-names');
    try {
      // One name not UTF-8 beside UTF-8 and ASCII ones: the listing cannot be decoded as a whole
      // (as the listings of valid names above are), so each path is decoded alone.
      mixed.write('caf\u00e9.ts', 'export const a = 1;\n');
      mixed.write('plain.ts', 'export const b = 1;\n');
      writeFileSync(
        Buffer.concat([Buffer.from(`${mixed.dir}/`), Buffer.from('caf\xe9.ts', 'latin1')]),
        'export const c = 1;\n',
      );
      mixed.commit('mixed names');
      const expected = ['caf\u00e9.ts', 'caf\uDCE9.ts', 'plain.ts'].sort();
      const committed = await listTrackedFiles(mixed.dir, 'HEAD');
      expect(committed.map((f) => f.path)).toEqual(expected);
      expect(committed.every((f) => f.mode === '100644' && /^[0-9a-f]{40}$/.test(f.blobSha))).toBe(
        true,
      );
      expect(committed.map((f) => f.size)).toEqual([20, 20, 20]);
      const indexed = await listTrackedFiles(mixed.dir);
      expect(indexed).toEqual(committed.map(({ size: _size, ...file }) => file));
    } finally {
      await mixed.remove();
    }
  });

  it('keep a name that is not UTF-8 readable from disk, with a note', async () => {
    const latin1 = await makeRepo('latin1-name');
    try {
      const name = Buffer.from('caf\xe9.txt', 'latin1');
      writeFileSync(Buffer.concat([Buffer.from(`${latin1.dir}/`), name]), 'one\n');
      latin1.commit('latin1 name');
      writeFileSync(Buffer.concat([Buffer.from(`${latin1.dir}/`), name]), 'two\n');
      const change = await readChange(latin1.dir, { kind: 'worktree' });
      expect(change.files).toHaveLength(1);
      // Every byte kept: 0xE9 alone is not UTF-8, so it stands as U+DCE9 (model/path-bytes.ts).
      expect(change.files[0]?.path).toBe('caf\uDCE9.txt');
      expect(change.files[0]?.head?.text).toBe('two\n');
      expect(change.complete).toBe(true);
      expect(change.notes).toEqual([expect.stringContaining('not valid UTF-8')]);
    } finally {
      await latin1.remove();
    }
  });
});
