import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { listTrackedFiles } from '../../src/git/list-files.js';
import { treeIdOf } from '../../src/git/tree-id.js';
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
});
