import { afterEach, describe, expect, it } from '@jest/globals';
import { createResolver } from '../../../src/analysis/resolve/create-resolver.js';
import { createTypeScriptHost } from '../../../src/memory/typescript-host.js';
import { makeTempDir } from '../../support/temp-dir.js';
import {
  NODE_NEXT,
  PATH_ALIASES,
  PLAIN_JS,
  type Tree,
  WORKSPACE,
  writeTree,
} from './fixture-trees.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function resolverFor(tree: Tree) {
  const temp = await makeTempDir('resolve');
  cleanups.push(temp.remove);
  await writeTree(temp.path, tree);
  const typescript = createTypeScriptHost(temp.path);
  const resolver = createResolver({ rootDir: temp.path, ...typescript });
  return { resolve: resolver.resolve, watched: resolver.watched, problems: typescript.problems };
}

const file = (path: string) => ({ kind: 'file', path });
const external = (packageName: string) => ({ kind: 'external', packageName });

describe('createResolver', () => {
  it('maps NodeNext `.js` specifiers to .ts, .tsx, .mts, .cts and index files', async () => {
    const { resolve } = await resolverFor(NODE_NEXT);
    expect(resolve('src/a.ts', './b.js')).toEqual(file('src/b.ts'));
    expect(resolve('src/a.ts', './view.js')).toEqual(file('src/view.tsx'));
    expect(resolve('src/a.ts', './esm.mjs')).toEqual(file('src/esm.mts'));
    expect(resolve('src/a.ts', './common.cjs')).toEqual(file('src/common.cts'));
    expect(resolve('src/a.ts', './dir/index.js')).toEqual(file('src/dir/index.ts'));
    expect(resolve('src/a.ts', './legacy.js')).toEqual(file('src/legacy.js'));
    expect(resolve('src/a.ts', './data.json')).toEqual(file('src/data.json'));
  });

  it('watches what each answer depends on: files looked for before it, and the file found', async () => {
    const { watched } = await resolverFor(NODE_NEXT);
    // `./dir` is a folder: the files TypeScript tried first, any of which would win if added.
    const folder = watched('src/a.ts', './dir');
    expect(folder).toEqual(
      expect.arrayContaining(['src/dir.ts', 'src/dir.tsx', 'src/dir/index.ts']),
    );
    expect(watched('src/a.ts', './b.js')).toContain('src/b.ts');
    // In a folder that does not exist TypeScript looks for no file: the folder is watched.
    expect(watched('src/a.ts', './later/x.js')).toContain('src/later/');
    // Packages: paths outside the repository are left out; builtins depend on nothing.
    expect(watched('src/a.ts', 'left-pad').every((path) => !path.startsWith('/'))).toBe(true);
    expect(watched('src/a.ts', 'node:fs')).toEqual([]);
  });

  it('still finds what NodeNext refuses: extensionless and folder imports', async () => {
    const { resolve } = await resolverFor(NODE_NEXT);
    expect(resolve('src/a.ts', './b')).toEqual(file('src/b.ts'));
    expect(resolve('src/a.ts', './dir')).toEqual(file('src/dir/index.ts'));
  });

  it('tells builtins, packages, missing packages and missing files apart', async () => {
    const { resolve } = await resolverFor(NODE_NEXT);
    expect(resolve('src/a.ts', 'node:fs')).toEqual({ kind: 'builtin' });
    expect(resolve('src/a.ts', 'fs/promises')).toEqual({ kind: 'builtin' });
    expect(resolve('src/a.ts', 'left-pad')).toEqual(external('left-pad'));
    // Not installed: still a package, so the answer is the same with or without npm install.
    expect(resolve('src/a.ts', '@scope/not-installed/sub')).toEqual(
      external('@scope/not-installed'),
    );
    expect(resolve('src/a.ts', './missing.js')).toEqual({ kind: 'unresolved' });
    expect(resolve('src/a.ts', '../../outside.js')).toEqual({ kind: 'unresolved' });
    expect(resolve('src/a.ts', 'Not A Package')).toEqual({ kind: 'unresolved' });
    expect(resolve('src/a.ts', '')).toEqual({ kind: 'unresolved' });
  });

  it('keeps files TypeScript does not resolve but that exist', async () => {
    const { resolve } = await resolverFor(NODE_NEXT);
    expect(resolve('src/a.ts', './styles.css')).toEqual(file('src/styles.css'));
  });

  it('follows baseUrl and paths aliases; a missing alias target is unresolved', async () => {
    const { resolve } = await resolverFor(PATH_ALIASES);
    expect(resolve('src/main.ts', '@app/util/strings')).toEqual(file('src/util/strings.ts'));
    expect(resolve('src/util/strings.ts', '~')).toEqual(file('src/index.ts'));
    expect(resolve('src/main.ts', 'src/util/strings')).toEqual(file('src/util/strings.ts'));
    expect(resolve('src/main.ts', '@app/nothing')).toEqual({ kind: 'unresolved' });
  });

  it('resolves JavaScript without any tsconfig', async () => {
    const { resolve, problems } = await resolverFor(PLAIN_JS);
    expect(resolve('index.js', './lib')).toEqual(file('lib/index.js'));
    expect(resolve('lib/index.js', './helper.mjs')).toEqual(file('lib/helper.mjs'));
    expect(resolve('lib/index.js', './view')).toEqual(file('lib/view.jsx'));
    expect(problems).toEqual([]);
  });

  it('resolves workspace packages through their node_modules links to repository files', async () => {
    const { resolve, problems } = await resolverFor(WORKSPACE);
    expect(resolve('packages/app/src/main.ts', '@demo/ui')).toEqual(
      file('packages/ui/src/index.ts'),
    );
    expect(resolve('packages/app/src/main.ts', '@demo/ui/button')).toEqual(
      file('packages/ui/src/button.ts'),
    );
    expect(resolve('packages/ui/src/index.ts', './button.js')).toEqual(
      file('packages/ui/src/button.ts'),
    );
    expect(problems).toEqual([]);
  });

  it('uses the nearest tsconfig of each file, with its extends', async () => {
    const tree: Tree = {
      ...WORKSPACE,
      'tsconfig.base.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '#shared/*': ['packages/ui/src/*'] } },
      }),
      'packages/app/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json' }),
      'packages/ui/tsconfig.json': JSON.stringify({
        compilerOptions: { moduleResolution: 'Node10' },
      }),
    };
    const { resolve } = await resolverFor(tree);
    expect(resolve('packages/app/src/main.ts', '#shared/button')).toEqual(
      file('packages/ui/src/button.ts'),
    );
    // ui's own config does not extend the base, so the alias means nothing there.
    expect(resolve('packages/ui/src/index.ts', '#shared/button')).toEqual({ kind: 'unresolved' });
  });

  it('reports a broken tsconfig and falls back to the defaults', async () => {
    const { resolve, problems } = await resolverFor({
      'tsconfig.json': '{ "compilerOptions": { "paths": ',
      'src/a.ts': '',
      'src/b.ts': '',
    });
    expect(resolve('src/a.ts', './b')).toEqual(file('src/b.ts'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^tsconfig\.json: /);
  });

  it('gives the same answers in any order of questions', async () => {
    const questions: [string, string][] = [
      ['src/a.ts', './b.js'],
      ['src/a.ts', 'left-pad'],
      ['src/dir/index.ts', '../b.js'],
      ['src/a.ts', './b'],
      ['src/esm.mts', './b.js'],
      ['src/common.cts', './b'],
    ];
    const first = await resolverFor(NODE_NEXT);
    const second = await resolverFor(NODE_NEXT);
    const forward = questions.map(([from, specifier]) => first.resolve(from, specifier));
    const backward = [...questions]
      .reverse()
      .map(([from, specifier]) => second.resolve(from, specifier))
      .reverse();
    expect(backward).toEqual(forward);
    expect(forward[5]).toEqual(file('src/b.ts'));
  });
});
