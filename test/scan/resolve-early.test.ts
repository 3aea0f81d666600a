import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { openResolutions } from '../../src/scan/cached-resolver.js';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import type { RepositorySource } from '../../src/scan/repository-source.js';
import { workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * Imports answered while worker threads still parse (resolveEarly) must leave resolveAll with
 * what it would have had: the same answers, stored the same way, the same unreadable inputs.
 */
describe('imports resolved early', () => {
  let restoreGit: () => Promise<void>;
  let repo: Repo & { remove(): Promise<void> };
  /** Each test's own cache folder: it starts with no stored answers. */
  let caches: { path: string; remove(): Promise<void> };
  let loads = 0;
  const requests = [
    { from: 'src/a.ts', specifier: './b.js' },
    { from: 'src/b.ts', specifier: 'node:fs' },
  ];

  /** The git source over the test's cache folder. */
  const source = (): RepositorySource => ({
    ...gitRepositorySource(repo.dir),
    cacheDir: caches.path,
  });

  /** The git source, counting the loads of TypeScript's resolution inputs. */
  const counted = (unreadable: boolean): RepositorySource => {
    const git = source();
    return {
      ...git,
      resolutionFiles: async (snapshot) => {
        loads += 1;
        const files = await git.resolutionFiles(snapshot);
        return unreadable
          ? { ...files, unreadable: [{ path: 'tsconfig.json', problem: 'it was not read' }] }
          : files;
      },
    };
  };

  /** A first run whose every answer comes early: loaded ahead, then all requests answered. */
  const earlyRun = async (unreadable: boolean) => {
    const snapshot = await workingTreeSnapshot(repo.dir);
    const first = await openResolutions(counted(unreadable), snapshot);
    await first.preload();
    first.resolveEarly(requests);
    return { snapshot, resolved: await first.resolveAll(requests) };
  };

  beforeAll(async () => {
    restoreGit = await isolateGit();
    repo = await makeRepo('resolve-early');
    repo.write(
      'tsconfig.json',
      '{ "compilerOptions": { "module": "nodenext", "paths": { "boom": ["./src/boom"] } } }\n',
    );
    repo.write('src/boom/package.json', '{ "types": "./index.ts" }\n');
    repo.write('src/boom/index.ts', 'export {};\n');
    repo.write('src/a.ts', "import { b } from './b.js';\nexport const a = b;\n");
    repo.write(
      'src/b.ts',
      "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n",
    );
    repo.commit('fixture');
  });
  afterAll(async () => {
    await repo.remove();
    await restoreGit();
  });
  beforeEach(async () => {
    caches = await makeTempDir('resolve-early-caches');
    loads = 0;
  });
  afterEach(() => caches.remove());

  it('does nothing before TypeScript is loaded, and never loads it', async () => {
    const resolutions = await openResolutions(counted(false), await workingTreeSnapshot(repo.dir));
    resolutions.resolveEarly(requests);
    expect(loads).toBe(0);
  });

  it('answers once loaded, and resolveAll stores those answers for the next run', async () => {
    const { snapshot, resolved } = await earlyRun(false);
    expect(resolved.resolve('src/a.ts', './b.js')).toEqual({ kind: 'file', path: 'src/b.ts' });
    expect(resolved.unreadable).toEqual([]);
    expect(loads).toBe(1);
    // Stored: the next run answers from the store, without TypeScript.
    const next = await openResolutions(counted(false), snapshot);
    await next.preload();
    const again = await next.resolveAll(requests);
    expect(again.resolve('src/a.ts', './b.js')).toEqual({ kind: 'file', path: 'src/b.ts' });
    expect(loads).toBe(1);
  });

  it('loads nothing ahead once answers are stored, even when the sources import nothing', async () => {
    const snapshot = (await workingTreeSnapshot(repo.dir)).filter((file) =>
      file.path.endsWith('.json'),
    );
    await (await openResolutions(counted(false), snapshot)).resolveAll([]);
    const next = await openResolutions(counted(false), snapshot);
    await next.preload();
    await next.resolveAll([]);
    expect(loads).toBe(0);
  });

  it('never throws early: a failing resolution is left to resolveAll, which reports it', async () => {
    const git = source();
    const failing: RepositorySource = {
      ...git,
      resolutionFiles: async (snapshot) => {
        const files = await git.resolutionFiles(snapshot);
        // Read while answering: the folder an alias names is a package, found by its package.json.
        return { ...files, texts: new FailingTexts(files.texts) };
      },
    };
    const boom = [{ from: 'src/a.ts', specifier: 'boom' }];
    const resolutions = await openResolutions(failing, await workingTreeSnapshot(repo.dir));
    await resolutions.preload();
    expect(() => resolutions.resolveEarly([...requests, ...boom])).not.toThrow();
    await expect(resolutions.resolveAll([...requests, ...boom])).rejects.toThrow(
      'the disk went away',
    );
  });

  it('reports unreadable inputs and keeps nothing, even when every answer came early', async () => {
    const { snapshot, resolved } = await earlyRun(true);
    expect(resolved.unreadable).toEqual([{ path: 'tsconfig.json', problem: 'it was not read' }]);
    // Nothing was stored: the next run resolves again.
    const next = await openResolutions(counted(false), snapshot);
    await next.resolveAll(requests);
    expect(loads).toBe(2);
  });
});

/** Config texts whose reading fails, as a disk that went away would. */
class FailingTexts extends Map<string, string> {
  override get(path: string): string | undefined {
    if (path === 'src/boom/package.json') throw new Error('the disk went away');
    return super.get(path);
  }
}
