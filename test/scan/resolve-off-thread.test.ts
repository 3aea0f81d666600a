import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { openResolutions } from '../../src/scan/cached-resolver.js';
import { gitRepositorySource } from '../../src/scan/git-repository-source.js';
import type { ResolutionFiles } from '../../src/scan/repository-source.js';
import {
  type ImportRequest,
  startResolverThread,
  worthResolverThread,
} from '../../src/scan/resolver-thread.js';
import { typeScriptResolver } from '../../src/scan/typescript-resolver.js';
import { workingTreeSnapshot } from '../../src/scan/working-tree-snapshot.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Aliases from an extended config, a package from the disk, files in two folders. */
const FIXTURE: Readonly<Record<string, string>> = {
  'tsconfig.json':
    '{\n  // aliases\n  "extends": "./configs/base.json",\n  "compilerOptions": { "paths": { "@lib/*": ["./src/lib/*"] } },\n}\n',
  'configs/base.json': '{ "compilerOptions": { "module": "nodenext" } }\n',
  'src/app/main.ts': 'export {};\n',
  'src/app/view.ts': 'export {};\n',
  'src/lib/index.ts': 'export {};\n',
  'src/lib/format.ts': 'export {};\n',
};

/**
 * Imports resolved on a worker thread (while this one parses) must get exactly the answers this
 * thread gives, and be stored alike; a thread that fails or never starts leaves its work here.
 */
describe('imports resolved on a worker thread', () => {
  useIsolatedGit();
  let repo: Repo & { remove(): Promise<void> };

  /** One import of each kind TypeScript tells apart, from two folders. */
  const requests: ImportRequest[] = [
    { from: 'src/app/main.ts', specifier: './view.js' },
    { from: 'src/app/main.ts', specifier: '@lib/format' },
    { from: 'src/app/main.ts', specifier: '../lib' },
    { from: 'src/app/main.ts', specifier: 'installed' },
    { from: 'src/app/main.ts', specifier: 'node:path' },
    { from: 'src/app/main.ts', specifier: './missing.js' },
    { from: 'src/lib/index.ts', specifier: './format.js' },
    { from: 'src/lib/index.ts', specifier: 'not-installed' },
  ];

  beforeAll(async () => {
    repo = await makeRepo('resolve-off-thread');
    for (const [path, text] of Object.entries(FIXTURE)) repo.write(path, text);
    repo.commit('fixture');
    return () => repo.remove();
  });
  beforeEach(() => {
    repo.git('clean', '--quiet', '-fdx');
    // Installed, never tracked: read from the disk, as in a clone.
    const installed = join(repo.dir, 'node_modules', 'installed');
    mkdirSync(installed, { recursive: true });
    writeFileSync(join(installed, 'package.json'), '{ "name": "installed", "main": "index.js" }');
    writeFileSync(join(installed, 'index.js'), 'module.exports = 1;\n');
  });

  const filesOf = async (): Promise<ResolutionFiles> =>
    gitRepositorySource(repo.dir).resolutionFiles(await workingTreeSnapshot(repo.dir));

  /** This thread's answers, as the worker reports them. */
  const answeredHere = (files: ResolutionFiles) => {
    const resolver = typeScriptResolver(files);
    return requests.map(({ from, specifier }) => ({
      from,
      specifier,
      resolution: resolver.resolve(from, specifier),
      watched: resolver.watched(from, specifier),
    }));
  };

  it('answers as this thread does, requests asked before its files included', async () => {
    const files = await filesOf();
    const thread = startResolverThread();
    expect(thread).toBeDefined();
    thread?.ask(requests.slice(0, 3));
    thread?.load(files);
    thread?.ask(requests.slice(3));
    const settled = await thread?.settle();
    expect(settled?.complete).toBe(true);
    expect(settled?.answers).toEqual(answeredHere(files));
    // The kinds are all there: a check that the fixture asks what it means to.
    expect(settled?.answers.map(({ resolution }) => resolution.kind)).toEqual([
      'file',
      'file',
      'file',
      'external',
      'builtin',
      'unresolved',
      'file',
      'external',
    ]);
  });

  it('answers a process that waits for nothing else, and ends with it', () => {
    // The thread must answer without this thread's event loop doing anything, and settle must
    // end it: a worker left running keeps its process from exiting.
    const script = join(repo.dir, '..', `${basename(repo.dir)}-settle.mjs`);
    const threadModule = new URL('../../dist/scan/resolver-thread.js', import.meta.url);
    // Files given as data, so that nothing else (no git process) is left to wait for.
    const files = {
      rootDir: '/repository',
      paths: ['tsconfig.json', 'src/a.ts', 'src/b.ts'],
      texts: [['tsconfig.json', '{}']],
      onDisk: false,
      configs: ['tsconfig.json'],
      unreadable: [],
    };
    writeFileSync(
      script,
      [
        `import { startResolverThread } from ${JSON.stringify(threadModule.href)};`,
        `const files = ${JSON.stringify(files)};`,
        'const thread = startResolverThread();',
        'thread.load({ ...files, texts: new Map(files.texts) });',
        "thread.ask([{ from: 'src/a.ts', specifier: './b.js' }]);",
        'const { answers, complete } = await thread.settle();',
        'console.log(JSON.stringify({ answers: answers.map((a) => a.resolution), complete }));',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    rmSync(script);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(
      JSON.stringify({ answers: [{ kind: 'file', path: 'src/b.ts' }], complete: true }),
    );
    expect(run.status).toBe(0);
  });

  it('is not complete when it failed, never got its files, or could not start', async () => {
    const broken = startResolverThread();
    // Paths that are not a list: building the resolver throws inside the worker.
    broken?.load({ ...(await filesOf()), paths: 42 } as unknown as ResolutionFiles);
    broken?.ask(requests);
    expect(await broken?.settle()).toEqual({ answers: [], complete: false });

    const unloaded = startResolverThread();
    unloaded?.ask(requests);
    expect(await unloaded?.settle()).toEqual({ answers: [], complete: false });

    const missing = pathToFileURL(join(repo.dir, 'no-such-worker.mjs'));
    const absent = startResolverThread(missing);
    absent?.load(await filesOf());
    expect((await absent?.settle())?.complete ?? false).toBe(false);
  });

  it('gives resolveAll the answers this thread would, stored for the next run', async () => {
    const snapshot = await workingTreeSnapshot(repo.dir);
    const caches = await makeTempDir('resolve-off-thread-caches');
    const source = { ...gitRepositorySource(repo.dir), cacheDir: caches.path };
    const onThread = await openResolutions(source, snapshot);
    await onThread.preload(true);
    onThread.resolveEarly(requests.slice(0, 4));
    const resolved = await onThread.resolveAll(requests);
    const expected = answeredHere(await filesOf());
    for (const [index, { from, specifier }] of requests.entries())
      expect(resolved.resolve(from, specifier)).toEqual(expected[index]?.resolution);
    expect(resolved.unreadable).toEqual([]);

    // Stored: the next run answers everything without resolving (no thread, no TypeScript).
    let reads = 0;
    const counted = {
      ...source,
      resolutionFiles: (files: typeof snapshot) => {
        reads += 1;
        return source.resolutionFiles(files);
      },
    };
    const next = await openResolutions(counted, snapshot);
    await next.preload(true);
    const again = await next.resolveAll(requests);
    for (const [index, { from, specifier }] of requests.entries())
      expect(again.resolve(from, specifier)).toEqual(expected[index]?.resolution);
    expect(reads).toBe(0);
    await caches.remove();
  });

  it('leaves to this thread what a failed thread did not answer, failures included', async () => {
    const snapshot = await workingTreeSnapshot(repo.dir);
    const git = gitRepositorySource(repo.dir);
    const failing = {
      ...git,
      cacheDir: undefined,
      resolutionFiles: async () => {
        throw new Error('the configs could not be read');
      },
    };
    const resolutions = await openResolutions(failing, snapshot);
    await resolutions.preload(true);
    expect(() => resolutions.resolveEarly(requests)).not.toThrow();
    await expect(resolutions.resolveAll(requests)).rejects.toThrow('the configs could not be read');
    resolutions.close();
  });

  it('is worth it only for a long parse on this thread, TypeScript not loaded here', () => {
    expect(worthResolverThread(10_000)).toBe(false);
    // Jest has loaded TypeScript on this thread (ts-jest): loading it again elsewhere is waste.
    expect(worthResolverThread(10_000_000)).toBe(false);
  });
});
