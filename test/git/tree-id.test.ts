import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listTrackedFiles } from '../../src/git/list-files.js';
import { folderTreesOf, type TreeEntry, treeIdOf } from '../../src/git/tree-id.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';

useIsolatedGit();

let repo: Repo & { remove(): Promise<void> };

beforeAll(async () => {
  repo = await makeRepo('tree-id');
});

afterAll(() => repo.remove());

describe('treeIdOf', () => {
  it('gives the id git gives the same files: nested folders, git order, links, modes', async () => {
    repo.write('a.ts', 'a\n');
    repo.write('a-b.ts', 'ab\n');
    repo.write('a/x.ts', 'x\n');
    repo.write('a.b/y.ts', 'y\n');
    repo.write('src/deep/er/z.ts', 'z\n');
    repo.write('run.sh', '#!/bin/sh\n');
    chmodSync(join(repo.dir, 'run.sh'), 0o755);
    repo.symlink('a.ts', 'link');
    repo.write('é.ts', 'accent\n');
    const head = repo.commit('files');
    const files = await listTrackedFiles(repo.dir, head);
    expect(files.find((file) => file.path === 'run.sh')?.mode).toBe('100755');
    expect(treeIdOf(files)).toBe(repo.git('rev-parse', `${head}^{tree}`));
    expect(treeIdOf(files.filter((file) => file.path !== 'a/x.ts'))).not.toBe(
      repo.git('rev-parse', `${head}^{tree}`),
    );
  });

  it('leaves ids that are not SHA-1 to git', () => {
    expect(treeIdOf([{ path: 'a.ts', mode: '100644', blobSha: 'a'.repeat(64) }])).toBeUndefined();
  });

  it('takes the trees of folders said unchanged from earlier trees, computing the others', () => {
    const blob = (n: number) => n.toString(16).padStart(40, '0');
    const before: TreeEntry[] = [
      { path: 'a.ts', mode: '100644', blobSha: blob(1) },
      { path: 'src/b.ts', mode: '100644', blobSha: blob(2) },
      { path: 'src/deep/c.ts', mode: '100644', blobSha: blob(3) },
      { path: 'lib/d.ts', mode: '100644', blobSha: blob(4) },
    ];
    const earlier = folderTreesOf(before, () => {});
    if (earlier === undefined) throw new Error('SHA-1 ids');
    const after = before.map((entry) =>
      entry.path === 'src/b.ts' ? { ...entry, blobSha: blob(5) } : entry,
    );
    const written: string[] = [];
    const kept = folderTreesOf(after, (id) => written.push(id), {
      trees: earlier,
      unchanged: (folder) => folder !== '' && folder !== 'src',
    });
    const fresh = folderTreesOf(after, () => {});
    expect(kept?.ids).toEqual(fresh?.ids);
    expect(written).toEqual([fresh?.ids.get('src'), fresh?.ids.get('')]);
    expect(kept?.ids.get('src/deep')).toBe(earlier.ids.get('src/deep'));
  });
});
