import { describe, expect, it } from '@jest/globals';
import { exportKeyFor, packageEntries } from '../../src/reflexion/public-api/package-entries.js';

const targets = (path: string, manifest: unknown) =>
  packageEntries(path, JSON.stringify(manifest)).entries.map(
    ({ field, group, target }) => `${group} ${field} → ${target}`,
  );

describe('packageEntries: every way a package.json publishes a file', () => {
  it('reads exports as a string, fallbacks, conditions at any depth, and folder mappings', () => {
    expect(targets('packages/a/package.json', { exports: './dist/a.js' })).toEqual([
      'root exports["."] → packages/a/dist/a.js',
    ]);
    expect(
      targets('package.json', {
        exports: {
          import: { node: ['./dist/node.mjs', './dist/fallback.mjs'], default: './dist/web.mjs' },
          require: './dist/a.cjs',
        },
      }),
    ).toEqual([
      'root exports["."].import.node[0] → dist/node.mjs',
      'root exports["."].import.node[1] → dist/fallback.mjs',
      'root exports["."].import.default → dist/web.mjs',
      'root exports["."].require → dist/a.cjs',
    ]);
    expect(targets('package.json', { exports: { './lib/': './dist/lib/' } })).toEqual([
      'exports:./lib/* exports["./lib/"] → dist/lib/*',
    ]);
  });

  it('reads main, module, types, typings, browser and bin, leaving the repository out', () => {
    expect(
      targets('package.json', {
        main: 'dist/index',
        module: './dist/index.mjs',
        typings: './dist/index.d.ts',
        browser: { './dist/node.js': './dist/browser.js', fs: false },
        bin: { tool: './bin/tool.js', escape: '../../outside.js' },
      }),
    ).toEqual([
      'root main → dist/index',
      'root module → dist/index.mjs',
      'root typings → dist/index.d.ts',
      'browser:./dist/node.js browser["./dist/node.js"] → dist/browser.js',
      'bin:tool bin.tool → bin/tool.js',
    ]);
  });

  it('says what it cannot read', () => {
    expect(packageEntries('package.json', '{').problem).toBe('it is not valid JSON');
    expect(
      packageEntries(
        'package.json',
        JSON.stringify({ exports: { '.': './a.js', import: './b.js' } }),
      ).problem,
    ).toBe('`exports` mixes subpaths ("./x") and conditions at one level');
  });
});

describe('exportKeyFor: the key Node resolves a subpath with', () => {
  const keys = new Map([
    ['.', true],
    ['./*', true],
    ['./internal/*', false],
    ['./internal/public.js', true],
  ]);
  it('prefers the exact key, then the pattern with the longest prefix', () => {
    expect(exportKeyFor('.', keys)).toBe('.');
    expect(exportKeyFor('./Array.js', keys)).toBe('./*');
    expect(exportKeyFor('./internal/cache.js', keys)).toBe('./internal/*');
    expect(exportKeyFor('./internal/public.js', keys)).toBe('./internal/public.js');
    expect(exportKeyFor('./internal', keys)).toBe('./*');
  });
});
