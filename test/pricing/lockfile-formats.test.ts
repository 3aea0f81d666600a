import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { isRecord } from '../../src/model/json.js';
import { itemsOf, priceOf } from './pricing-support.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'lockfiles');

function fixture(format: string, name: string): string {
  return readFileSync(join(FIXTURES, format, name), 'utf8');
}

/** A fixture project's manifest, stored as `<name>.txt` (see the fixtures' README). */
function manifestOf(format: string, name: string): string {
  return fixture(format, `${name}.txt`);
}

/** `pnpm list --depth Infinity --json`: the distinct `name@version` of its trees. */
function pnpmListed(text: string): Set<string> {
  const found = new Set<string>();
  const walk = (tree: unknown): void => {
    if (!isRecord(tree)) return;
    for (const section of ['dependencies', 'devDependencies', 'optionalDependencies']) {
      const packages = tree[section];
      if (!isRecord(packages)) continue;
      for (const [name, node] of Object.entries(packages)) {
        if (isRecord(node)) found.add(`${name}@${String(node.version)}`);
        walk(node);
      }
    }
  };
  const listed: unknown = JSON.parse(text);
  if (Array.isArray(listed)) for (const project of listed) walk(project);
  return found;
}

/** `yarn list --json` (v1): the packages it lists, less the `shadow` references to them. */
function yarnV1Listed(text: string): Set<string> {
  const found = new Set<string>();
  const walk = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes) {
      if (!isRecord(node)) continue;
      if (node.shadow !== true) found.add(String(node.name));
      walk(node.children);
    }
  };
  const listed: unknown = JSON.parse(text);
  walk(isRecord(listed) && isRecord(listed.data) ? listed.data.trees : []);
  return found;
}

/** `yarn info --all --recursive --json` (berry): one line per package, workspaces aside. */
function berryListed(text: string): Set<string> {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const values = lines.map((line) => String(JSON.parse(line).value));
  return new Set(values.filter((value) => !value.includes('@workspace:')));
}

/** `bun pm ls --all`: the `name@version` at the end of each tree line. */
function bunListed(text: string): Set<string> {
  return new Set(text.match(/(?<=[├└]── )\S+/g) ?? []);
}

/** `scripts`: whether the format records that core-js runs an install script. */
const FORMATS = [
  {
    format: 'pnpm-v9',
    lockfile: 'pnpm-lock.yaml',
    listing: 'pnpm-list.json',
    count: pnpmListed,
    scripts: false,
  },
  {
    format: 'pnpm-v6',
    lockfile: 'pnpm-lock.yaml',
    listing: 'pnpm-list.json',
    count: pnpmListed,
    scripts: true,
  },
  {
    format: 'yarn-v1',
    lockfile: 'yarn.lock',
    listing: 'yarn-list.json',
    count: yarnV1Listed,
    scripts: false,
  },
  {
    format: 'yarn-berry',
    lockfile: 'yarn.lock',
    listing: 'yarn-info.json',
    count: berryListed,
    scripts: false,
  },
  {
    format: 'bun',
    lockfile: 'bun.lock',
    listing: 'bun-pm-ls.txt',
    count: bunListed,
    scripts: true,
  },
];

/** `cargo tree --target all`: the distinct `name vX` it shows, the project's own aside. */
function cargoListed(text: string): Set<string> {
  const lines = text.split('\n').filter((line) => !line.includes('(.)'));
  return new Set(lines.flatMap((line) => /([\w-]+ v\S+)/.exec(line)?.[1] ?? []));
}

/** `vendor/modules.txt`, written by `go mod vendor`: one `# module version` line per module. */
function goListed(text: string): Set<string> {
  return new Set(text.split('\n').filter((line) => /^# \S+ \S+$/.test(line)));
}

/** uv.lock's `[[package]]` tables, less the project's own (its editable or virtual source). */
function uvListed(text: string): Set<string> {
  const tables = text.split(/^\[\[package\]\]$/m).slice(1);
  const own = /^source = \{ (editable|virtual) = /m;
  return new Set(
    tables
      .filter((table) => !own.test(table))
      .map((table) => table.split('\n').slice(1, 3).join(' ')),
  );
}

/** `poetry show --all`: one package per line, its name first. */
function poetryListed(text: string): Set<string> {
  return new Set(text.match(/^\S+(?= )/gm) ?? []);
}

/** Bundler's reading of Gemfile.lock: one `name-version` line per gem it installs. */
function bundlerListed(text: string): Set<string> {
  return new Set(text.match(/^\S+$/gm) ?? []);
}

/** What a new project's lockfile installs, by AUREUS: its dependencies' packages and the rest. */
function installedBy(details: readonly string[]): number {
  return details.reduce((sum, detail) => {
    const count = /\((\d+) new packages?|gains (\d+) packages?/.exec(detail);
    return sum + Number(count?.[1] ?? count?.[2] ?? 0);
  }, 0);
}

const OTHERS = [
  {
    format: 'cargo',
    manifest: 'Cargo.toml',
    lockfile: 'Cargo.lock',
    listing: 'cargo-tree.txt',
    count: cargoListed,
  },
  { format: 'go', manifest: 'go.mod', lockfile: 'go.sum', listing: 'modules.txt', count: goListed },
  {
    format: 'poetry',
    manifest: 'pyproject.toml',
    lockfile: 'poetry.lock',
    listing: 'poetry-show.txt',
    count: poetryListed,
  },
  {
    format: 'uv',
    manifest: 'pyproject.toml',
    lockfile: 'uv.lock',
    listing: 'uv.lock',
    count: uvListed,
  },
  {
    format: 'gemfile',
    manifest: 'Gemfile',
    lockfile: 'Gemfile.lock',
    listing: 'bundler-specs.txt',
    count: bundlerListed,
  },
];

describe('lockfiles of other ecosystems, from real projects', () => {
  for (const { format, manifest, lockfile, listing, count } of OTHERS) {
    it(`${format}: a new project installs as many packages as the listing shows`, async () => {
      const listed = count(fixture(format, listing));
      const priced = await priceOf([
        { path: manifest, head: manifestOf(format, manifest) },
        { path: lockfile, head: fixture(format, lockfile) },
      ]);
      const details = itemsOf(priced, 'dependencies').map((item) => item.detail);
      expect(listed.size).toBeGreaterThan(3);
      expect(installedBy(details)).toBe(listed.size);
    });
  }
});

describe('lockfiles written by the real package managers', () => {
  for (const { format, lockfile, listing, count, scripts } of FORMATS) {
    it(`${format}: a new project installs as many packages as the tool lists`, async () => {
      const listed = count(fixture(format, listing));
      const priced = await priceOf([
        { path: 'package.json', head: manifestOf(format, 'package.json') },
        { path: lockfile, head: fixture(format, lockfile) },
      ]);
      const transitive = priced.dependencies.map((added) => added.transitivePackages ?? 0);
      expect(listed.size).toBeGreaterThan(10);
      expect(transitive.reduce((sum, packages) => sum + packages, 0)).toBe(listed.size);
      const coreJs = priced.dependencies.find((added) => added.name === 'core-js');
      expect(coreJs?.installScript).toBe(scripts);
      // Nothing is left to the lockfile's own item: every package is some dependency's.
      expect(priced.cost.dependencies).toBe(
        priced.dependencies.reduce((sum, added) => sum + added.points, 0),
      );
    });
  }
});
