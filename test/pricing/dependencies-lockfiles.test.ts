import { describe, expect, it } from '@jest/globals';
import { baseName } from '../../src/analysis/repository-paths.js';
import { lockfile, packageJson } from './npm-fixtures.js';
import { itemsOf, priceOf } from './pricing-support.js';

const WITH_UTIL = packageJson({ dependencies: { util: 'workspace:*' } });
const UTIL_MANIFEST = '{ "name": "util", "version": "1.0.0" }\n';

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
      { path: 'packages/util/package.json', head: UTIL_MANIFEST },
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

/** A Cargo.lock whose root crate `app` needs `crates` (each `[name, source?]`). */
function cargoLock(crates: readonly (readonly [string, string?])[]): string {
  const needs = crates.map(([name]) => `"${name}"`).join(', ');
  const entries = crates.map(
    ([name, source]) =>
      `[[package]]\nname = "${name}"\nversion = "1.0.0"\n${source === undefined ? '' : `source = "${source}"\n`}`,
  );
  return `version = 3\n\n[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = [${needs}]\n\n${entries.join('\n')}`;
}

const CRATES_IO = 'registry+https://github.com/rust-lang/crates.io-index';
const PNPM_ROOT_ONLY = "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n";
const BERRY_ROOT_ONLY = `__metadata:\n  version: 8\n\n"app@workspace:.":\n  version: 0.0.0-use.local\n  resolution: "app@workspace:."\n  languageName: unknown\n  linkType: soft\n`;

const GEMS_ONLY = 'GEM\n  remote: https://rubygems.org/\n  specs:\n\nDEPENDENCIES\n';
const TOOL_GEMSPEC = 'Gem::Specification.new { |s| s.name = "tool" }\n';

/** A Gemfile.lock whose Gemfile declares the gem `tool` by its path. */
function gemAtPath(remote: string): string {
  return `PATH\n  remote: ${remote}\n  specs:\n    tool (0.1.0)\n\n${GEMS_ONLY}  tool!\n`;
}

describe("a workspace's own packages, as a lockfile calls them", () => {
  it('prices the crates a Cargo.lock calls its own when the change holds no manifest of them', async () => {
    const priced = await priceOf([
      { path: 'Cargo.lock', base: cargoLock([]), head: cargoLock([['a'], ['b'], ['c']]) },
    ]);
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 15,
        path: 'Cargo.lock',
        detail: 'Cargo.lock gains 3 packages that no new dependency pulls in',
      },
    ]);
    expect(priced.notes).toContain(
      "Cargo.lock: a, b, c: the workspace's own by the lockfile, but the change adds no manifest of them (Cargo.toml with that [package] name): priced as packages.",
    );
  });

  it('keeps free a crate whose Cargo.toml the change adds, and those own in the base', async () => {
    const priced = await priceOf([
      { path: 'Cargo.lock', base: cargoLock([]), head: cargoLock([['util'], ['log', CRATES_IO]]) },
      { path: 'crates/util/Cargo.toml', head: '[package]\nname = "util"\nversion = "1.0.0"\n' },
    ]);
    expect(itemsOf(priced, 'dependencies')).toEqual([
      {
        points: 5,
        path: 'Cargo.lock',
        detail: 'Cargo.lock gains 1 package that no new dependency pulls in',
      },
    ]);
  });

  it('prices a pnpm link: whose folder the change holds no package.json of', async () => {
    const priced = await priceOf([
      { path: 'package.json', base: packageJson({}), head: WITH_UTIL },
      { path: 'pnpm-lock.yaml', base: PNPM_ROOT_ONLY, head: pnpmWorkspace(true) },
    ]);
    expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 2 }]);
    expect(priced.notes).toContain(
      "pnpm-lock.yaml: packages/util: the workspace's own by the lockfile, but the change adds no manifest of them (package.json with that name, in its folder): priced as packages.",
    );
  });

  it('keeps free a new pnpm workspace whose package.json the change adds in its folder', async () => {
    const priced = await priceOf([
      { path: 'package.json', base: packageJson({}), head: WITH_UTIL },
      { path: 'packages/util/package.json', head: UTIL_MANIFEST },
      { path: 'pnpm-lock.yaml', base: PNPM_ROOT_ONLY, head: pnpmWorkspace(true) },
    ]);
    expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 1 }]);
  });

  it('prices a yarn workspace: whose manifest is elsewhere or names another package', async () => {
    for (const manifest of ['util/package.json', 'packages/util/package.json']) {
      const priced = await priceOf([
        { path: 'package.json', base: packageJson({}), head: WITH_UTIL },
        {
          path: manifest,
          head: manifest === 'util/package.json' ? UTIL_MANIFEST : '{ "name": "other" }\n',
        },
        { path: 'yarn.lock', base: BERRY_ROOT_ONLY, head: berryWorkspace(true) },
      ]);
      expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 2 }]);
    }
  });

  it('keeps free a new yarn workspace whose package.json the change adds', async () => {
    const priced = await priceOf([
      { path: 'package.json', base: packageJson({}), head: WITH_UTIL },
      { path: 'packages/util/package.json', head: UTIL_MANIFEST },
      { path: 'yarn.lock', base: BERRY_ROOT_ONLY, head: berryWorkspace(true) },
    ]);
    expect(priced.dependencies).toMatchObject([{ name: 'util', transitivePackages: 1 }]);
  });

  const OTHERS = [
    {
      lockfile: 'package-lock.json',
      base: lockfile({}),
      head: lockfile({
        'node_modules/ui': { link: true, resolved: 'packages/ui' },
        'packages/ui': {},
      }),
      manifest: ['packages/ui/package.json', '{ "name": "ui" }\n'],
    },
    {
      lockfile: 'bun.lock',
      base: '{ "lockfileVersion": 1, "workspaces": { "": { "name": "app" } }, "packages": {} }\n',
      head: '{ "lockfileVersion": 1, "workspaces": { "": { "name": "app" } }, "packages": { "ui": ["ui@workspace:packages/ui"], }, }\n',
      manifest: ['packages/ui/package.json', '{ "name": "ui" }\n'],
    },
    {
      lockfile: 'uv.lock',
      base: 'version = 1\n\n[[package]]\nname = "app"\nversion = "0.1.0"\nsource = { virtual = "." }\n',
      head: 'version = 1\n\n[[package]]\nname = "app"\nversion = "0.1.0"\nsource = { virtual = "." }\n\n[[package]]\nname = "tool"\nversion = "0.1.0"\nsource = { editable = "tools/tool" }\n',
      manifest: ['tools/tool/pyproject.toml', '[project]\nname = "Tool"\n'],
    },
    {
      lockfile: 'Gemfile.lock',
      base: GEMS_ONLY,
      head: gemAtPath('gems/tool'),
      manifest: ['gems/tool/tool.gemspec', TOOL_GEMSPEC],
    },
  ] as const;

  for (const { lockfile: path, base, head, manifest } of OTHERS) {
    it(`${path}: prices a new own package unless the change adds its manifest in its folder`, async () => {
      const [manifestPath, manifestText] = manifest;
      const forged = await priceOf([{ path, base, head }]);
      const real = await priceOf([
        { path, base, head },
        { path: manifestPath, head: manifestText },
      ]);
      const elsewhere = await priceOf([
        { path, base, head },
        { path: `elsewhere/${baseName(manifestPath)}`, head: manifestText },
      ]);
      expect(forged.cost.dependencies).toBeGreaterThan(0);
      expect(elsewhere.cost.dependencies).toBe(forged.cost.dependencies);
      expect(real.cost.dependencies).toBe(0);
    });
  }

  it('prices an own package the lockfile places outside the repository', async () => {
    const priced = await priceOf([
      { path: 'Gemfile.lock', base: GEMS_ONLY, head: gemAtPath('../tool') },
      { path: 'tool/tool.gemspec', head: TOOL_GEMSPEC },
    ]);
    expect(priced.cost.dependencies).toBe(5);
  });
});
