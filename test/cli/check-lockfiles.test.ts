import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'lockfiles');

interface JsonReport {
  cost: { dependencies: number };
  costItems: { category: string; detail: string }[];
  dependencies: { name: string; transitivePackages: number | null }[];
}

/** Each format's lockfile of the sample project before it declared any dependency. */
const BEFORE = {
  pnpm: "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n",
  yarn: `__metadata:\n  version: 8\n\n"lockfile-sample@workspace:.":\n  version: 0.0.0-use.local\n  resolution: "lockfile-sample@workspace:."\n  languageName: unknown\n  linkType: soft\n`,
};

const CASES = [
  { tool: 'pnpm', folder: 'pnpm-v9', lockfile: 'pnpm-lock.yaml', before: BEFORE.pnpm },
  { tool: 'yarn', folder: 'yarn-berry', lockfile: 'yarn.lock', before: BEFORE.yarn },
];

describe('aureus check on a change that adds dependencies to a real lockfile', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('lockfiles');
    repo.write('.gitignore', '.aureus/local/\n');
  });
  afterEach(() => repo.remove());

  for (const { tool, folder, lockfile, before } of CASES) {
    it(`prices each new dependency with the packages ${tool} installs for it, in the ledger too`, async () => {
      repo.write('package.json', '{ "name": "lockfile-sample", "version": "1.0.0" }\n');
      repo.write(lockfile, before);
      const base = repo.commit('base');
      // The fixture's manifest is stored as package.json.txt (see the fixtures' README).
      repo.write('package.json', readFileSync(join(FIXTURES, folder, 'package.json.txt'), 'utf8'));
      repo.write(lockfile, readFileSync(join(FIXTURES, folder, lockfile), 'utf8'));
      repo.commit('add dependencies');
      const run = await runCliInProcess(
        ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
        repo.dir,
      );
      const report = JSON.parse(run.stdout) as JsonReport;
      expect(
        report.dependencies.map(({ name, transitivePackages }) => [name, transitivePackages]),
      ).toEqual([
        ['chalk', 6],
        ['core-js', 1],
        ['debug', 2],
        ['is-number', 1],
        ['is-odd', 2],
      ]);
      expect(report.costItems).toContainEqual(
        expect.objectContaining({
          detail: 'new dependency chalk in package.json (6 new packages)',
        }),
      );
      const ledger = readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8');
      const record = JSON.parse(ledger.trim().split('\n').at(-1) ?? '{}').record;
      expect(record.cost.dependencies).toBe(report.cost.dependencies);
      expect(record.cost.dependencies).toBeGreaterThan(50);
    });
  }

  it('judges incompletely a change whose lockfile it cannot read, rather than price each package as one', async () => {
    repo.write('package.json', '{ "name": "lockfile-sample", "version": "1.0.0" }\n');
    repo.write('pnpm-lock.yaml', BEFORE.pnpm);
    const base = repo.commit('base');
    repo.write('package.json', readFileSync(join(FIXTURES, 'pnpm-v9', 'package.json.txt'), 'utf8'));
    // YAML aliases: a document this reader refuses, whatever the package manager makes of it.
    const aliased = readFileSync(join(FIXTURES, 'pnpm-v9', 'pnpm-lock.yaml'), 'utf8').replace(
      "lockfileVersion: '9.0'",
      "lockfileVersion: '9.0'\nbomb: &a [x, x]\nbomb2: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
    );
    repo.write('pnpm-lock.yaml', aliased);
    repo.commit('add dependencies');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout) as JsonReport & { verdict: string; reasons: string[] };
    expect(report.verdict).toBe('incomplete');
    expect(report.reasons.join('\n')).toContain('pnpm-lock.yaml: a lockfile AUREUS cannot read');
  });

  it('judges incompletely a new dependency the lockfile the repository keeps does not install', async () => {
    repo.write('package.json', '{ "name": "lockfile-sample", "version": "1.0.0" }\n');
    repo.write('pnpm-lock.yaml', BEFORE.pnpm);
    repo.write('packages/app/package.json', '{ "name": "app", "version": "1.0.0" }\n');
    const base = repo.commit('base');
    // The manifests alone: the lockfile, unchanged, installs none of it.
    repo.write(
      'package.json',
      '{ "name": "lockfile-sample", "dependencies": { "webpack": "^5" }, "peerDependencies": { "react": "^18", "vue": "^3" }, "peerDependenciesMeta": { "react": { "optional": true } } }\n',
    );
    repo.write(
      'packages/app/package.json',
      '{ "name": "app", "dependencies": { "x": "git+https://example.com/x.git" } }\n',
    );
    repo.commit('add dependencies without locking them');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout) as JsonReport & { verdict: string; reasons: string[] };
    expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
    const reasons = report.reasons.join('\n');
    // pnpm (8 and later, auto-install-peers) installs the project's own non-optional peers.
    expect(reasons).toContain(
      'package.json: pnpm-lock.yaml, the lockfile the repository keeps for it, does not install vue, webpack',
    );
    expect(reasons).toContain('packages/app/package.json: pnpm-lock.yaml, the lockfile');
    // An optional peer is the consumer's to install: no lockfile of this package need hold it.
    expect(reasons).not.toMatch(/does not install[^.]*react/);
  });

  it('judges incompletely a new peer dependency package-lock.json does not install, as npm 7 and later install it', async () => {
    repo.write('package.json', '{ "name": "lockfile-sample", "version": "1.0.0" }\n');
    repo.write(
      'package-lock.json',
      '{ "name": "lockfile-sample", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": { "": { "name": "lockfile-sample", "version": "1.0.0" } } }\n',
    );
    const base = repo.commit('base');
    repo.write(
      'package.json',
      '{ "name": "lockfile-sample", "version": "1.0.0", "peerDependencies": { "react": "^18", "webpack": "^5" }, "peerDependenciesMeta": { "react": { "optional": true } } }\n',
    );
    repo.commit('add peer dependencies without locking them');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout) as JsonReport & { verdict: string; reasons: string[] };
    expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
    const reasons = report.reasons.join('\n');
    expect(reasons).toContain(
      'package.json: package-lock.json, the lockfile the repository keeps for it, does not install webpack as the manifest asks',
    );
    // npm installs no optional peer the project declares.
    expect(reasons).not.toMatch(/does not install[^.]*react/);
  });

  it('judges completely a new peer dependency yarn.lock does not hold, as yarn installs no root peer', async () => {
    repo.write('package.json', '{ "name": "lockfile-sample", "version": "1.0.0" }\n');
    repo.write('yarn.lock', BEFORE.yarn);
    const base = repo.commit('base');
    repo.write(
      'package.json',
      '{ "name": "lockfile-sample", "version": "1.0.0", "peerDependencies": { "webpack": "^5" } }\n',
    );
    repo.commit('add a peer dependency');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout) as JsonReport & { verdict: string; reasons: string[] };
    expect(report.reasons.join('\n')).not.toContain('does not install');
    expect(report.verdict).not.toBe('incomplete');
  });

  /** An npm project whose one dependency, lodash, its package-lock.json installs. */
  function lodashProject(): string {
    repo.write(
      'package.json',
      JSON.stringify({ name: 'app', dependencies: { lodash: '^4.17.21' } }),
    );
    repo.write(
      'package-lock.json',
      JSON.stringify({
        name: 'app',
        lockfileVersion: 3,
        packages: {
          '': { name: 'app', dependencies: { lodash: '^4.17.21' } },
          'node_modules/lodash': { version: '4.17.21' },
        },
      }),
    );
    return repo.commit('base');
  }

  async function checkFrom(base: string) {
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout) as JsonReport & { verdict: string; reasons: string[] };
    return { code: run.code, report };
  }

  it('judges incompletely a dependency pointed at another package while the lockfile stays as it was', async () => {
    const base = lodashProject();
    // The same name, another package: an npm alias that the unchanged lockfile never installed.
    repo.write(
      'package.json',
      JSON.stringify({ name: 'app', dependencies: { lodash: 'npm:evil@1.0.0' } }),
    );
    repo.commit('point lodash at another package');
    const { code, report } = await checkFrom(base);
    expect([report.verdict, code]).toEqual(['incomplete', 2]);
    expect(report.reasons.join('\n')).toContain(
      'package.json: package-lock.json, the lockfile the repository keeps for it, does not install lodash as the manifest asks',
    );
  });

  it('judges incompletely a dependency respecified in another section, which npm lets override the first', async () => {
    const base = lodashProject();
    repo.write(
      'package.json',
      JSON.stringify({
        name: 'app',
        dependencies: { lodash: '^4.17.21' },
        optionalDependencies: { lodash: 'npm:evil@1.0.0' },
      }),
    );
    repo.commit('point lodash at another package from optionalDependencies');
    const { code, report } = await checkFrom(base);
    expect([report.verdict, code]).toEqual(['incomplete', 2]);
    expect(report.reasons.join('\n')).toContain('does not install lodash as the manifest asks');
  });

  it.each([
    ['overrides', { overrides: { lodash: 'npm:evil@1.0.0' } }],
    ['resolutions', { resolutions: { lodash: 'npm:evil@1.0.0' } }],
    ['pnpm.overrides', { pnpm: { overrides: { lodash: 'npm:evil@1.0.0' } } }],
  ])('judges incompletely %s changed while the lockfile stays as it was', async (name, pins) => {
    const base = lodashProject();
    repo.write(
      'package.json',
      JSON.stringify({ name: 'app', dependencies: { lodash: '^4.17.21' }, ...pins }),
    );
    repo.commit('replace what the tree installs');
    const { code, report } = await checkFrom(base);
    expect([report.verdict, code]).toEqual(['incomplete', 2]);
    // An override that now swaps lodash for another package is a new dependency the lockfile lacks too.
    expect(report.reasons.join('\n')).toMatch(
      new RegExp(`does not install (?:lodash, )?${name} as the manifest asks`),
    );
  });

  it("judges incompletely a spec npm's lockfile, edited elsewhere, does not record", async () => {
    const base = lodashProject();
    repo.write(
      'package.json',
      JSON.stringify({ name: 'app', dependencies: { lodash: 'npm:evil@1.0.0' } }),
    );
    const locked = (spec: string) =>
      JSON.stringify({
        name: 'app',
        lockfileVersion: 3,
        packages: {
          '': { name: 'app', dependencies: { lodash: spec } },
          'node_modules/lodash': { version: '4.17.21' },
          'node_modules/is-number': { version: '7.0.0' },
        },
      });
    // A package moved in elsewhere, while the record of the manifest keeps the old spec.
    repo.write('package-lock.json', locked('^4.17.21'));
    repo.commit('point lodash at another package, the lockfile touched elsewhere');
    const { code, report } = await checkFrom(base);
    expect([report.verdict, code]).toEqual(['incomplete', 2]);
    expect(report.reasons.join('\n')).toContain('does not install lodash as the manifest asks');
    // A lockfile whose record follows the manifest is judged on what it installs.
    repo.write('package-lock.json', locked('npm:evil@1.0.0'));
    repo.commit('the lockfile records the new spec');
    expect((await checkFrom(base)).report.verdict).not.toBe('incomplete');
  });

  it('prices the package an alias now installs, and its install script, as packages the lockfile gains', async () => {
    const base = lodashProject();
    repo.write(
      'package.json',
      JSON.stringify({ name: 'app', dependencies: { lodash: 'npm:evil@1.0.0' } }),
    );
    repo.write(
      'package-lock.json',
      JSON.stringify({
        name: 'app',
        lockfileVersion: 3,
        packages: {
          '': { name: 'app', dependencies: { lodash: 'npm:evil@1.0.0' } },
          // npm writes the aliased package's own name into the entry of the folder it fills.
          'node_modules/lodash': { name: 'evil', version: '1.0.0', hasInstallScript: true },
        },
      }),
    );
    repo.commit('point lodash at another package, locked');
    const { report } = await checkFrom(base);
    // per_transitive_package (5) for evil and install_script (20) for what it runs: lodash is
    // another package now, a new direct dependency (counted against new_dependencies).
    expect(report.cost.dependencies).toBe(25);
    expect(report.costItems).toContainEqual(
      expect.objectContaining({
        category: 'dependencies',
        detail: 'new dependency lodash in package.json (1 new package, runs an install script)',
      }),
    );
  });

  it('prices the crates a Cargo.lock calls its own when the repository holds none of them', async () => {
    const crates = Array.from({ length: 120 }, (_, index) => `crate${index}`);
    const root = (needs: readonly string[]) =>
      `[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = [${needs.map((name) => `"${name}"`).join(', ')}]\n`;
    repo.write('Cargo.toml', '[package]\nname = "app"\nversion = "0.1.0"\n');
    repo.write('Cargo.lock', `version = 3\n\n${root([])}`);
    const base = repo.commit('base');
    // The `source` lines deleted: every crate looks like a workspace member.
    const forged = crates.map((name) => `[[package]]\nname = "${name}"\nversion = "1.0.0"\n`);
    repo.write('Cargo.lock', `version = 3\n\n${[root(crates), ...forged].join('\n')}`);
    repo.commit('add crates');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout) as JsonReport & { verdict: string };
    expect(report.cost.dependencies).toBe(600);
    expect(report.verdict).toBe('block');
    expect(run.code).toBe(1);
  });
});
