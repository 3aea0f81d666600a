import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { checkAsJson } from '../support/run-cli-in-process.js';

const NAMES = ['aa', 'bb', 'cc'];

function manifest(dependencies: Record<string, string>, extra: Record<string, unknown> = {}) {
  return `${JSON.stringify({ name: 'app', version: '1.0.0', dependencies, ...extra }, null, 2)}\n`;
}

/** An npm v3 lockfile installing each name as the package `packageOf` says. */
function lockfile(dependencies: Record<string, string>, packageOf: (name: string) => string) {
  const packages: Record<string, unknown> = {
    '': { name: 'app', version: '1.0.0', dependencies },
  };
  for (const name of Object.keys(dependencies)) {
    const target = packageOf(name);
    packages[`node_modules/${name}`] = {
      ...(target === name ? {} : { name: target }),
      version: '1.0.0',
      resolved: `https://registry.npmjs.org/${target}/-/${target}-1.0.0.tgz`,
      integrity: 'sha512-AAAA',
    };
  }
  return `${JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

/**
 * A direct dependency respecified as another package (an npm alias, a git URL, an override
 * that swaps it) installs a new package under an old name: it counts against
 * budgets.new_dependencies as three new names would, never a free swap.
 */
describe('direct dependencies swapped for other packages', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  const ranges = Object.fromEntries(NAMES.map((name) => [name, '^1.0.0']));
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('swapped-dependencies');
    repo.write('package.json', manifest(ranges));
    repo.write(
      'package-lock.json',
      lockfile(ranges, (name) => name),
    );
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const budgetFinding = async () => {
    const { code, report } = await checkAsJson(repo.dir, base);
    return {
      code,
      found: report.findings.filter(
        (finding: { ruleId: string }) => finding.ruleId === 'dependency_budget',
      ),
    };
  };

  it('counts three names aliased to other packages as three new dependencies', async () => {
    const aliases = Object.fromEntries(NAMES.map((name) => [name, `npm:evil-${name}@1.0.0`]));
    repo.write('package.json', manifest(aliases));
    repo.write(
      'package-lock.json',
      lockfile(aliases, (name) => `evil-${name}`),
    );
    repo.commit('aliases');
    const { code, found } = await budgetFinding();
    expect(found).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/adds 3 direct dependencies/) }),
    ]);
    expect(code).toBe(1);
  });

  it('counts overrides that swap packages, and not a range moved within one', async () => {
    const moved = { ...ranges, aa: '^1.2.0' };
    const overrides = Object.fromEntries(NAMES.map((name) => [`x-${name}`, `npm:evil-${name}@1`]));
    repo.write('package.json', manifest(moved, { overrides }));
    repo.write(
      'package-lock.json',
      lockfile(moved, (name) => name),
    );
    repo.commit('overrides');
    const { code, found } = await budgetFinding();
    expect(found).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/adds 3 direct dependencies \(x-aa, x-bb and x-cc\)/),
      }),
    ]);
    // The lockfile does not record the overrides npm would apply: the check is incomplete too.
    expect(code).not.toBe(0);
  });
});
