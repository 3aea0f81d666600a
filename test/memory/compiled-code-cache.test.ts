import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { codeCacheFolder } from '../../src/memory/compiled-code-cache.js';
import { compiledCodeStore } from '../../src/memory/compiled-code-store.js';

// The hook acts on the process that installs it, so each run is a real Node process: the built
// module (npm run build) installs it, then requires TypeScript and uses it.
const BUILT = fileURLToPath(new URL('../../dist/memory/compiled-code-cache.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TYPESCRIPT = createRequire(join(ROOT, 'package.json')).resolve('typescript');
const NODE_CACHES_ITSELF = typeof Reflect.get(nodeModule, 'enableCompileCache') === 'function';

const SCRIPT = `
import { createRequire } from 'node:module';
const { enableCodeCache } = await import(process.argv[2]);
const status = enableCodeCache(process.argv[3] === 'off' ? undefined : process.argv[3]);
const ts = createRequire(process.argv[4])('typescript');
const output = ts.transpileModule('const answer: number = 42;', {}).outputText.trim();
process.on('exit', () => console.log(JSON.stringify({ mode: status.mode, events: status.events, output })));
`;

interface Run {
  mode: string;
  events: string[];
  output: string;
}

let dir: string;
let folder: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aureus-code-cache-'));
  folder = join(dir, 'code');
  writeFileSync(join(dir, 'run.mjs'), SCRIPT);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(cacheFolder = folder): Run {
  const child = spawnSync(
    process.execPath,
    [join(dir, 'run.mjs'), BUILT, cacheFolder, join(ROOT, 'package.json')],
    { encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  const result: Run = JSON.parse(child.stdout);
  // Whatever became of the cache, TypeScript works.
  expect(result.output).toBe('var answer = 42;');
  return result;
}

const TS = 'typescript/lib/typescript.js';

(NODE_CACHES_ITSELF ? describe.skip : describe)(
  'on Node without a compile cache of its own',
  () => {
    it('compiles TypeScript once, then runs it from the stored code', () => {
      expect(run()).toEqual(
        expect.objectContaining({
          mode: 'large-modules',
          events: [`${TS}: absent`, `${TS}: stored`],
        }),
      );
      expect(readdirSync(folder)).toHaveLength(1);
      expect(run().events).toEqual([`${TS}: from the store`]);
    });

    it('does not use damaged code, compiles anew and replaces it', () => {
      run();
      const [name] = readdirSync(folder);
      const entry = join(folder, String(name));
      const bytes = readFileSync(entry);
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
      writeFileSync(entry, bytes);
      expect(run().events).toEqual([`${TS}: damaged`, `${TS}: stored`]);
      expect(run().events).toEqual([`${TS}: from the store`]);
    });

    it('compiles anew when V8 refuses what is stored (another build of V8, other flags)', () => {
      const source = readFileSync(TYPESCRIPT, 'utf8');
      compiledCodeStore(folder, `${process.versions.v8}-${process.arch}`).write(
        source,
        Buffer.from('not code V8 produced, under a valid checksum'),
      );
      expect(run().events).toEqual([`${TS}: rejected by V8`, `${TS}: stored`]);
      expect(run().events).toEqual([`${TS}: from the store`]);
    });

    it('still runs, keeping nothing, when the folder cannot be made', () => {
      writeFileSync(folder, 'a file where the folder would be');
      expect(run()).toEqual(
        expect.objectContaining({
          mode: 'off',
          events: [expect.stringMatching(/^compiled code is not kept: /)],
        }),
      );
    });
  },
);

describe('on any Node', () => {
  it('keeps nothing when turned off', () => {
    expect(run('off')).toEqual(expect.objectContaining({ mode: 'off', events: [] }));
    expect(existsSync(folder)).toBe(false);
  });

  it('uses Node’s own compile cache where Node has one, else its own store', () => {
    expect(run().mode).toBe(NODE_CACHES_ITSELF ? 'node' : 'large-modules');
    // Node's cache lives in a folder of its own beside AUREUS's entries.
    const kept = NODE_CACHES_ITSELF ? readdirSync(join(folder, 'node')) : readdirSync(folder);
    expect(kept.length).toBeGreaterThan(0);
  });
});

describe('a folder compiled code is not kept in', () => {
  const refused = (why: RegExp) =>
    expect.objectContaining({ mode: 'off', events: [expect.stringMatching(why)] });

  it('refuses a folder that is a link, wherever it leads', () => {
    mkdirSync(join(dir, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(dir, 'elsewhere'), folder);
    expect(run()).toEqual(refused(/code is a symbolic link/));
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
  });

  it('refuses a folder others may write', () => {
    mkdirSync(folder, { mode: 0o700 });
    chmodSync(folder, 0o777);
    expect(run()).toEqual(refused(/may be written by others/));
  });

  (NODE_CACHES_ITSELF ? it : it.skip)('refuses a node/ folder in it that is a link', () => {
    mkdirSync(folder, { mode: 0o700 });
    mkdirSync(join(dir, 'planted'), { mode: 0o700 });
    symlinkSync(join(dir, 'planted'), join(folder, 'node'));
    expect(run()).toEqual(refused(/node is a symbolic link/));
    expect(readdirSync(join(dir, 'planted'))).toEqual([]);
  });

  it('creates the folders it keeps code in for this user alone', () => {
    run();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    if (NODE_CACHES_ITSELF) expect(statSync(join(folder, 'node')).mode & 0o777).toBe(0o700);
  });
});

describe('codeCacheFolder', () => {
  it('is a folder of this test run for the CLI processes the tests start', () => {
    expect(process.env.AUREUS_CODE_CACHE).toContain(join(tmpdir(), 'aureus-test-caches-'));
  });

  it('follows AUREUS_CODE_CACHE, else code/ in AUREUS_CACHE_DIR, else the user’s cache folder', () => {
    expect(codeCacheFolder({ AUREUS_CODE_CACHE: 'off' })).toBeUndefined();
    expect(codeCacheFolder({ AUREUS_CODE_CACHE: '/srv/cache/aureus' })).toBe('/srv/cache/aureus');
    expect(codeCacheFolder({ AUREUS_CACHE_DIR: '/srv/aureus' })).toBe(join('/srv/aureus', 'code'));
    expect(codeCacheFolder({ AUREUS_CACHE_DIR: 'off' })).toBeUndefined();
    if (process.platform === 'linux') {
      expect(codeCacheFolder({})).toMatch(/[/]aureus[/]code$/);
    }
  });

  it('is none on a self-hosted runner, whose home outlives the job, unless one is named', () => {
    const runner = { GITHUB_ACTIONS: 'true', RUNNER_ENVIRONMENT: 'self-hosted' };
    expect(codeCacheFolder({ ...runner, AUREUS_CACHE_DIR: '/srv/aureus' })).toBeUndefined();
    expect(codeCacheFolder({ ...runner, AUREUS_CODE_CACHE: '/srv/code' })).toBe('/srv/code');
    const hosted = { GITHUB_ACTIONS: 'true', RUNNER_ENVIRONMENT: 'github-hosted' };
    expect(codeCacheFolder({ ...hosted, AUREUS_CACHE_DIR: '/srv/aureus' })).toBe(
      join('/srv/aureus', 'code'),
    );
  });

  it('is none where a link outside the repository leads into it', () => {
    const repo = mkdtempSync(join(tmpdir(), 'aureus-code-cache-repo-'));
    try {
      mkdirSync(join(repo, '.git'));
      mkdirSync(join(repo, 'cache'));
      symlinkSync(join(repo, 'cache'), join(dir, 'link'));
      expect(codeCacheFolder({ AUREUS_CODE_CACHE: join(dir, 'link') }, repo)).toBeUndefined();
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('is none inside the repository it runs in, whose files could be compiled code', () => {
    const repo = mkdtempSync(join(tmpdir(), 'aureus-code-cache-repo-'));
    try {
      mkdirSync(join(repo, '.git'));
      mkdirSync(join(repo, 'src'));
      const inside = { AUREUS_CODE_CACHE: join(repo, '.cache', 'code') };
      expect(codeCacheFolder(inside, join(repo, 'src'))).toBeUndefined();
      expect(codeCacheFolder({ AUREUS_CACHE_DIR: join(repo, 'c') }, repo)).toBeUndefined();
      expect(codeCacheFolder(inside, tmpdir())).toBe(join(repo, '.cache', 'code'));
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
