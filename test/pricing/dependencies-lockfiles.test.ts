import { describe, expect, it } from '@jest/globals';
import { lockfile, packageJson } from './npm-fixtures.js';
import { itemsOf, priceOf } from './pricing-support.js';

const WITH_UTIL = packageJson({ dependencies: { util: 'workspace:*' } });

/** A pnpm v9 workspace whose root may depend on its own package `util` (which needs `ms`). */
function pnpmWorkspace(rootNeedsUtil: boolean): string {
  const root = rootNeedsUtil
    ? '    dependencies:\n      util:\n        specifier: workspace:*\n        version: link:packages/util\n'
    : '    {}\n';
  return `lockfileVersion: '9.0'

importers:

  .:
${root}
  packages/util:
    dependencies:
      ms:
        specifier: 2.1.3
        version: 2.1.3

packages:

  ms@2.1.3:
    resolution: {integrity: sha512-x}

snapshots:

  ms@2.1.3: {}
`;
}

/** A yarn berry workspace whose root may depend on its own package `util` (which needs `ms`). */
function berryWorkspace(rootNeedsUtil: boolean): string {
  const root = rootNeedsUtil ? '  dependencies:\n    util: "workspace:packages/util"\n' : '';
  return `__metadata:
  version: 8

"app@workspace:.":
  version: 0.0.0-use.local
  resolution: "app@workspace:."
${root}  languageName: unknown
  linkType: soft

"ms@npm:^2.1.3":
  version: 2.1.3
  resolution: "ms@npm:2.1.3"
  languageName: node
  linkType: hard

"util@workspace:packages/util":
  version: 0.0.0-use.local
  resolution: "util@workspace:packages/util"
  dependencies:
    ms: "npm:^2.1.3"
  languageName: unknown
  linkType: soft
`;
}

describe('dependencies read from any lockfile', () => {
  it('prices a dependency moved from dev to runtime as new to the runtime', async () => {
    const lock = lockfile({
      'node_modules/express': { dependencies: { debug: '^4' } },
      'node_modules/debug': {},
      'node_modules/vitest': { dependencies: { debug: '^4', tinypool: '^1' } },
      'node_modules/tinypool': {},
    });
    const priced = await priceOf([
      {
        path: 'package.json',
        base: packageJson({ dependencies: { express: '^4' }, devDependencies: { vitest: '^1' } }),
        head: packageJson({ dependencies: { express: '^4', vitest: '^1' } }),
      },
      { path: 'package-lock.json', base: lock, head: lock },
    ]);
    // debug ships already (express needs it): vitest and tinypool are new to the runtime.
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 10,
        path: null,
        detail: 'dependency moved from dev to runtime vitest in package.json (2 new packages)',
      },
    ]);
  });

  it("never counts a workspace's own package (pnpm link:), only what it installs", async () => {
    const priced = await priceOf([
      { path: 'package.json', base: packageJson({}), head: WITH_UTIL },
      { path: 'pnpm-lock.yaml', base: pnpmWorkspace(false), head: pnpmWorkspace(true) },
    ]);
    // ms was installed already, for util: the root gains no package.
    expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 0 }]);
  });

  it("never counts a workspace's own package (yarn workspace:), only what it installs", async () => {
    const priced = await priceOf([
      { path: 'package.json', base: packageJson({}), head: WITH_UTIL },
      { path: 'yarn.lock', base: berryWorkspace(false), head: berryWorkspace(true) },
    ]);
    expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 0 }]);
  });

  it('counts what a new workspace brings, but not the workspace (pnpm)', async () => {
    const priced = await priceOf([
      { path: 'package.json', head: WITH_UTIL },
      { path: 'pnpm-lock.yaml', head: pnpmWorkspace(true) },
    ]);
    expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 1 }]);
    expect(priced.cost.dependencies).toBe(5);
  });

  it('notes a pnpm lockfile v5 and counts its dependencies as 1 package', async () => {
    const priced = await priceOf([
      { path: 'package.json', head: packageJson({ dependencies: { ms: '^2' } }) },
      { path: 'pnpm-lock.yaml', head: 'lockfileVersion: 5.4\n\nspecifiers:\n  ms: ^2\n' },
    ]);
    expect(priced.notes).toContain(
      'pnpm-lock.yaml (head): not read as a lockfile (lockfile version 5.4 (pnpm ≥ 8 writes 6 or 9)).',
    );
    expect(priced.dependencies).toMatchObject([{ name: 'ms', transitivePackages: null }]);
  });
});
