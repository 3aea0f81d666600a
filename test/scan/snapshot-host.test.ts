import { posix } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { createResolver } from '../../src/analysis/resolve/create-resolver.js';
import { configExtends } from '../../src/analysis/resolve/emit-settings-of.js';
import { typescript } from '../../src/analysis/typescript-runtime.js';
import { createTypeScriptHost } from '../../src/memory/typescript-host.js';
import { createSnapshotHost } from '../../src/scan/snapshot-host.js';
import {
  NODE_NEXT,
  PATH_ALIASES,
  PLAIN_JS,
  type Tree,
  writeTree,
} from '../analysis/resolve/fixture-trees.js';
import { makeTempDir } from '../support/temp-dir.js';

const ROOT = '/repository';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function textsOf(tree: Tree): Map<string, string> {
  return new Map(
    Object.entries(tree).flatMap(([path, content]) =>
      typeof content === 'string' && path.endsWith('.json') ? [[path, content] as const] : [],
    ),
  );
}

function snapshotResolver(tree: Tree) {
  const host = createSnapshotHost({
    rootDir: ROOT,
    paths: Object.keys(tree),
    texts: textsOf(tree),
  });
  const typescript = createTypeScriptHost(ROOT, host);
  return { ...createResolver({ rootDir: ROOT, ...typescript }), problems: typescript.problems };
}

async function diskResolver(tree: Tree) {
  const temp = await makeTempDir('snapshot-host');
  cleanups.push(temp.remove);
  await writeTree(temp.path, tree);
  return createResolver({ rootDir: temp.path, ...createTypeScriptHost(temp.path) });
}

const QUESTIONS: Record<string, readonly (readonly [string, string])[]> = {
  NODE_NEXT: [
    ['src/a.ts', './b.js'],
    ['src/a.ts', './view.js'],
    ['src/a.ts', './esm.mjs'],
    ['src/a.ts', './common.cjs'],
    ['src/a.ts', './dir/index.js'],
    ['src/a.ts', './dir'],
    ['src/a.ts', './styles.css'],
    ['src/a.ts', './data.json'],
    ['src/a.ts', 'left-pad'],
    ['src/a.ts', './missing.js'],
    ['src/esm.mts', './b.js'],
  ],
  PATH_ALIASES: [
    ['src/main.ts', '@app/util/strings'],
    ['src/util/strings.ts', '~'],
    ['src/main.ts', 'src/util/strings'],
    ['src/main.ts', '@app/nothing'],
  ],
  PLAIN_JS: [
    ['index.js', './lib'],
    ['lib/index.js', './helper.mjs'],
    ['lib/index.js', './view'],
  ],
};

describe('createSnapshotHost', () => {
  it.each([
    ['NODE_NEXT', NODE_NEXT],
    ['PATH_ALIASES', PATH_ALIASES],
    ['PLAIN_JS', PLAIN_JS],
  ])('answers as the disk does for the files of %s', async (name, tree) => {
    const onDisk = await diskResolver(tree);
    const inMemory = snapshotResolver(tree);
    const questions = QUESTIONS[name] ?? [];
    expect(questions.length).toBeGreaterThan(0);
    for (const [from, specifier] of questions) {
      expect([from, specifier, inMemory.resolve(from, specifier)]).toEqual([
        from,
        specifier,
        onDisk.resolve(from, specifier),
      ]);
    }
    expect(inMemory.problems).toEqual([]);
  });

  it('knows folders from the paths, and nothing outside the root', () => {
    const host = createSnapshotHost({
      rootDir: ROOT,
      paths: ['a/b/c.ts', 'a/d.ts', 'e.ts'],
      texts: new Map([['a/package.json', '{}']]),
    });
    expect(host.directoryExists?.(`${ROOT}/a/b`)).toBe(true);
    expect(host.directoryExists?.(`${ROOT}/a/b/`)).toBe(true);
    expect(host.directoryExists?.(`${ROOT}/node_modules`)).toBe(false);
    expect(host.getDirectories?.(ROOT)).toEqual(['a']);
    expect(host.getDirectories?.(`${ROOT}/a`)).toEqual(['b']);
    expect(host.fileExists(`${ROOT}/a/d.ts`)).toBe(true);
    expect(host.fileExists(`${ROOT}/a`)).toBe(false);
    expect(host.readFile(`${ROOT}/a/package.json`)).toBe('{}');
    expect(host.readFile('/etc/passwd')).toBeUndefined();
    expect(host.realpath?.(`${ROOT}/a/d.ts`)).toBe(`${ROOT}/a/d.ts`);
  });

  it('degrades a config that extends a package to the uninstalled-package answers', () => {
    const tree: Tree = {
      'tsconfig.json': JSON.stringify({
        extends: '@tsconfig/strictest/tsconfig.json',
        compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } },
      }),
      'src/a.ts': '',
      'src/b.ts': '',
    };
    const { resolve, problems } = snapshotResolver(tree);
    // The config's own options still apply; packages are packages, installed or not.
    expect(resolve('src/a.ts', '@app/b')).toEqual({ kind: 'file', path: 'src/b.ts' });
    expect(resolve('src/a.ts', 'left-pad')).toEqual({ kind: 'external', packageName: 'left-pad' });
    // Read when the first question of the folder came: TypeScript found no such package.
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^tsconfig\.json: .*@tsconfig\/strictest/);
  });
});

describe('configExtends', () => {
  it('names the repository files a config extends, as TypeScript looks them up', () => {
    const text = '{\n  // shared\n  "extends": ["./base", "../up.json", "@tsconfig/node20"],\n}\n';
    expect(configExtends('configs/tsconfig.json', text)).toEqual([
      'configs/base',
      'configs/base.json',
      'up.json',
    ]);
    expect(configExtends('tsconfig.json', '{ "extends": "../outside.json" }')).toEqual([]);
    expect(configExtends('tsconfig.json', '{ "extends": "/etc/tsconfig.json" }')).toEqual([]);
    expect(configExtends('tsconfig.json', 'not json at all')).toEqual([]);
  });

  it('reads `extends` as TypeScript does from every config TypeScript reads without error', () => {
    // Valid JSON with comments, and texts TypeScript rejects (a config it rejects gets the
    // default options, its `extends` unread: what is listed for those changes no answer).
    const texts = [
      '{ "extends": "./a" }',
      '{\n // c\n "extends": "./a", /* b */ }',
      '\uFEFF{ "extends": ["./a", "./b",], }',
      '{ "extends": "./a", "extends": "./b" }',
      '{ "compilerOptions": { "extends": "./x" } }',
      '{ "ext\\u0065nds": "./a\\u0062" }',
      '{ "extends": 1 }',
      "{ 'extends': './a' }",
      '{ extends: "./a" }',
      '[ { "extends": "./a" } ]',
      '{ "extends": "./a", "compilerOptions": {',
      '{ "extends": "./a" } trailing',
      '',
    ];
    let read = 0;
    for (const text of texts) {
      const parsed = typescript.parseConfigFileTextToJson('configs/tsconfig.json', text);
      if (parsed.error !== undefined) continue;
      read += 1;
      const named: unknown = parsed.config?.extends;
      const list = (Array.isArray(named) ? named : [named]).filter(
        (entry) => typeof entry === 'string',
      );
      const expected = list.flatMap((entry: string) => {
        const path = posix.normalize(posix.join('configs', entry));
        return path.endsWith('.json') ? [path] : [path, `${path}.json`];
      });
      expect(configExtends('configs/tsconfig.json', text)).toEqual(expected);
    }
    expect(read).toBe(8);
  });
});
