import { describe, expect, it } from '@jest/globals';
import { lockfile, packageJson } from './npm-fixtures.js';
import { itemsOf, policyFrom, priceOf } from './pricing-support.js';

const BASE_MANIFEST = packageJson({ dependencies: { express: '^4' } });
const BASE_LOCK = lockfile({ 'node_modules/express': {} });

describe('npm dependencies', () => {
  it('prices a new dependency whose lockfile adds 3 packages, one with an install script, at 5×3+20', async () => {
    const priced = await priceOf([
      {
        path: 'package.json',
        base: BASE_MANIFEST,
        head: packageJson({ dependencies: { express: '^4', sharp: '^1' } }),
      },
      {
        path: 'package-lock.json',
        base: BASE_LOCK,
        head: lockfile({
          'node_modules/express': {},
          'node_modules/sharp': { dependencies: { color: '^1', 'node-addon': '^1' } },
          'node_modules/color': { dependencies: { express: '^4' } },
          'node_modules/node-addon': { hasInstallScript: true },
        }),
      },
    ]);
    expect(priced.dependencies).toEqual([
      {
        name: 'sharp',
        manifest: 'package.json',
        transitivePackages: 3,
        installScript: true,
        points: 35,
      },
    ]);
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 35,
        path: null,
        detail: 'new dependency sharp in package.json (3 new packages, runs an install script)',
      },
    ]);
    expect(priced.cost.dependencies).toBe(35);
    expect(priced.notes).toContain(
      'The own size of a new dependency is unknown offline (no lockfile records it): priced as 0 kloc.',
    );
  });

  it('prices a removed dependency at nothing', async () => {
    const priced = await priceOf([
      {
        path: 'package.json',
        base: packageJson({ dependencies: { express: '^4', lodash: '^4' } }),
        head: BASE_MANIFEST,
      },
      {
        path: 'package-lock.json',
        base: lockfile({ 'node_modules/express': {}, 'node_modules/lodash': {} }),
        head: BASE_LOCK,
      },
    ]);
    expect(priced.dependencies).toEqual([]);
    expect(priced.cost.dependencies).toBe(0);
  });

  it('prices a dev dependency at test_code_weight', async () => {
    const priced = await priceOf([
      {
        path: 'package.json',
        base: BASE_MANIFEST,
        head: packageJson({ dependencies: { express: '^4' }, devDependencies: { vitest: '^1' } }),
      },
      {
        path: 'package-lock.json',
        base: BASE_LOCK,
        head: lockfile({ 'node_modules/express': {}, 'node_modules/vitest': {} }),
      },
    ]);
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 1.25,
        path: null,
        detail: 'new dev dependency vitest in package.json (1 new package)',
      },
    ]);
  });

  it('counts a package two new dependencies share once, for the first by name', async () => {
    const priced = await priceOf([
      {
        path: 'package.json',
        base: BASE_MANIFEST,
        head: packageJson({ dependencies: { express: '^4', b: '1', a: '1' } }),
      },
      {
        path: 'package-lock.json',
        base: BASE_LOCK,
        head: lockfile({
          'node_modules/express': {},
          'node_modules/a': { dependencies: { shared: '1' } },
          'node_modules/b': { dependencies: { shared: '1' } },
          'node_modules/shared': {},
          'node_modules/b/node_modules/shared': {},
        }),
      },
    ]);
    expect(priced.dependencies.map((added) => [added.name, added.transitivePackages])).toEqual([
      ['a', 2],
      ['b', 2],
    ]);
    expect(priced.notes.some((note) => note.includes('gains'))).toBe(false);
  });

  it("resolves a workspace package's new dependency through the root lockfile", async () => {
    const priced = await priceOf([
      {
        path: 'packages/ui/package.json',
        base: packageJson({}),
        head: packageJson({ dependencies: { react: '^18' } }),
      },
      {
        path: 'package-lock.json',
        base: lockfile({
          'node_modules/ui': { link: true, resolved: 'packages/ui' },
          'packages/ui': {},
        }),
        head: lockfile({
          'node_modules/ui': { link: true, resolved: 'packages/ui' },
          'packages/ui': { dependencies: { react: '^18' } },
          'packages/ui/node_modules/react': { dependencies: { 'loose-envify': '^1' } },
          'node_modules/loose-envify': {},
        }),
      },
    ]);
    expect(priced.dependencies).toEqual([
      {
        name: 'react',
        manifest: 'packages/ui/package.json',
        transitivePackages: 2,
        installScript: false,
        points: 10,
      },
    ]);
  });

  it('counts a new dependency as 1 package when no changed lockfile records it', async () => {
    const priced = await priceOf([
      {
        path: 'package.json',
        base: BASE_MANIFEST,
        head: packageJson({ dependencies: { express: '^4', zod: '^3' } }),
      },
    ]);
    expect(priced.dependencies).toEqual([
      {
        name: 'zod',
        manifest: 'package.json',
        transitivePackages: null,
        installScript: false,
        points: 5,
      },
    ]);
    expect(priced.notes).toContain(
      'package.json: no changed npm lockfile records zod: each counts as 1 package.',
    );
  });

  it('prices a package already installed, now declared directly, at nothing', async () => {
    const lock = lockfile({
      'node_modules/express': { dependencies: { debug: '^2' } },
      'node_modules/debug': {},
    });
    const priced = await priceOf([
      {
        path: 'package.json',
        base: BASE_MANIFEST,
        head: packageJson({ dependencies: { express: '^4', debug: '^2' } }),
      },
      { path: 'package-lock.json', base: lock, head: `${lock}\n` },
    ]);
    expect(priced.dependencies).toEqual([
      {
        name: 'debug',
        manifest: 'package.json',
        transitivePackages: 0,
        installScript: false,
        points: 0,
      },
    ]);
  });

  it('prices packages the lockfile gains that no new dependency explains, as transitive packages', async () => {
    const priced = await priceOf([
      {
        path: 'package-lock.json',
        base: BASE_LOCK,
        head: lockfile({
          'node_modules/express': { dependencies: { qs: '1', esbuild: '1' } },
          'node_modules/qs': {},
          'node_modules/esbuild': { hasInstallScript: true },
        }),
      },
    ]);
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 30,
        path: 'package-lock.json',
        detail:
          'package-lock.json gains 2 packages that no new dependency pulls in, one runs an install script',
      },
    ]);
    expect(priced.dependencies).toEqual([]);
    expect(priced.notes).toEqual([]);
    expect(priced.cost.total).toBe(30);
  });

  it('prices nothing for packages a lockfile only moves (npm dedupe) or installs twice', async () => {
    const priced = await priceOf([
      {
        path: 'package-lock.json',
        base: lockfile({
          'node_modules/express': { dependencies: { qs: '1' } },
          'node_modules/express/node_modules/qs': {},
          'node_modules/lodash': {},
        }),
        head: lockfile({
          'node_modules/express': { dependencies: { qs: '1' } },
          'node_modules/qs': {},
          'node_modules/lodash': {},
          'node_modules/express/node_modules/lodash': {},
        }),
      },
    ]);
    expect(itemsOf(priced, 'dependencies')).toEqual([]);
    expect(priced.cost.total).toBe(0);
  });

  it('prices only what no new dependency explains, once, at the lockfile path weight', async () => {
    const priced = await priceOf(
      [
        {
          path: 'test/fixture/package.json',
          base: BASE_MANIFEST,
          head: packageJson({ dependencies: { express: '^4', zod: '^3' } }),
        },
        {
          path: 'test/fixture/package-lock.json',
          base: BASE_LOCK,
          head: lockfile({
            'node_modules/express': { dependencies: { qs: '1' } },
            'node_modules/qs': {},
            'node_modules/zod': {},
          }),
        },
      ],
      { policy: policyFrom('pricing:\n  test_code_weight: 0.5\n') },
    );
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 2.5,
        path: null,
        detail: 'new dependency zod in test/fixture/package.json (1 new package)',
      },
      {
        points: 2.5,
        path: 'test/fixture/package-lock.json',
        detail: 'test/fixture/package-lock.json gains 1 package that no new dependency pulls in',
      },
    ]);
  });

  it('turns a malformed package.json into a note, priced as text, without throwing', async () => {
    const priced = await priceOf([
      { path: 'package.json', base: BASE_MANIFEST, head: '{ "dependencies": { "x": \n' },
    ]);
    expect(priced.dependencies).toEqual([]);
    expect(priced.notes).toEqual([
      expect.stringMatching(/^package\.json: its dependencies are not read \(not valid JSON/),
    ]);
    expect(itemsOf(priced, 'loc')).toEqual([
      { points: -6, path: 'package.json', detail: 'removes 6 lines' },
    ]);
  });

  it('notes a v1 lockfile and counts its dependencies as 1 package', async () => {
    const v1 = JSON.stringify({ lockfileVersion: 1, dependencies: {} });
    const priced = await priceOf([
      { path: 'package.json', head: packageJson({ dependencies: { zod: '^3' } }) },
      { path: 'package-lock.json', head: v1 },
    ]);
    expect(priced.dependencies.map((added) => added.transitivePackages)).toEqual([null]);
    expect(priced.notes[0]).toBe(
      'package-lock.json (head): not read as a lockfile (no `packages` map (lockfile v1?)).',
    );
  });
});
