import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { isRecord } from '../../src/model/json.js';
import { priceOf } from './pricing-support.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'lockfiles');

function fixture(format: string, name: string): string {
  return readFileSync(join(FIXTURES, format, name), 'utf8');
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

describe('lockfiles written by the real package managers', () => {
  for (const { format, lockfile, listing, count, scripts } of FORMATS) {
    it(`${format}: a new project installs as many packages as the tool lists`, async () => {
      const listed = count(fixture(format, listing));
      const priced = await priceOf([
        { path: 'package.json', head: fixture(format, 'package.json') },
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
