import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import { commitSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { useOwnCacheFolder } from '../support/own-cache-folder.js';

let restoreGit: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let commit: string;
const CONFIG = '{ "compilerOptions": { "verbatimModuleSyntax": true } }\n';

/**
 * Every check reads the tsconfig files of both sides for their emit settings, even when every
 * import answer is stored: a warm run (a pre-commit hook) takes them from the text cache by
 * blob id instead of starting `git cat-file` for them again.
 */
beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('resolution-config-texts');
  repo.write('tsconfig.json', CONFIG);
  repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
  repo.write('src/b.ts', 'export const b = 1;\n');
  commit = repo.commit('a and b');
});

afterAll(async () => {
  await repo.remove();
  await restoreGit();
});

describe('the resolution inputs of a local clone', () => {
  const cache = useOwnCacheFolder('all');

  /** Removes the config's object from git: only a cache can answer for it afterwards. */
  const dropConfigObject = () => {
    const blob = repo.hashText(CONFIG);
    rmSync(join(repo.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
  };

  it('are read from git once, then from the text cache', async () => {
    const snapshot = await commitSnapshot(repo.dir, commit);
    const first = await gitRepositorySource(repo.dir).resolutionFiles(snapshot);
    expect(first.texts.get('tsconfig.json')).toBe(CONFIG);
    dropConfigObject();
    const again = await gitRepositorySource(repo.dir).resolutionFiles(snapshot);
    expect(again.texts.get('tsconfig.json')).toBe(CONFIG);
    expect(again.unreadable).toEqual([]);
  });

  it('never take a cached text that does not hash to its blob id', async () => {
    const snapshot = await commitSnapshot(repo.dir, commit);
    const blob = repo.hashText(CONFIG);
    writeFileSync(join(cache.path(), 'texts', blob.slice(0, 2), blob), '{ "planted": true }\n');
    // The planted entry is a miss, and git no longer has the blob: the read fails, never lies.
    await expect(gitRepositorySource(repo.dir).resolutionFiles(snapshot)).rejects.toThrow(
      `git has no blob ${blob}`,
    );
  });
});
