import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { lockfile, packageJson } from '../pricing/npm-fixtures.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { godClassOf, lockWithBig, MIB, packagesOf } from '../support/large-files.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

interface JsonReport {
  verdict: string;
  reasons: string[];
  change: { complete: boolean; notes: string[] };
  cost: { total: number; loc: number; dependencies: number };
  costItems: { category: string; points: number; path: string | null; detail: string }[];
  dependencies: { name: string; transitivePackages: number | null; points: number }[];
}

describe('aureus check at the read limits', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('limits');
    repo.write('src/util.ts', 'export const twice = (n: number): number => n * 2;\n');
    repo.write('package.json', packageJson({ dependencies: {} }));
    repo.write('package-lock.json', lockfile({}));
  });
  afterEach(() => repo.remove());

  const commitBase = () => {
    base = repo.commit('base');
  };
  const checkHead = async () => {
    repo.commit('the change');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    return { code: run.code, report: JSON.parse(run.stdout) as JsonReport };
  };

  it('is incomplete, naming the file and what to do, for a TypeScript file over the read limit', async () => {
    commitBase();
    repo.write('src/engine.ts', godClassOf(1.1 * MIB));
    const { code, report } = await checkHead();
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
    expect(report.change.complete).toBe(false);
    const notes = report.change.notes.filter((note) => note.startsWith('src/engine.ts'));
    expect(notes).toEqual([
      expect.stringMatching(/^src\/engine\.ts is \d+ bytes, over the 1048576-byte read limit/),
      expect.stringContaining('paths.generated'),
    ]);
    expect(notes[1]).toContain('TypeScript');
    expect(report.reasons[0]).toContain('src/engine.ts');
  });

  it('passes the same file under a path the base policy ignores', async () => {
    repo.write('.aureus/policy.yaml', 'version: 1\npaths:\n  ignore: [vendor/**]\n');
    commitBase();
    repo.write('vendor/engine.ts', godClassOf(1.1 * MIB));
    const { code, report } = await checkHead();
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
    expect(report.change.complete).toBe(true);
  });

  it('judges a TypeScript file over the read limit under a generated name incompletely: no generator mark can be read', async () => {
    repo.write('.aureus/policy.yaml', 'version: 1\npaths:\n  generated: [src/generated/**]\n');
    commitBase();
    repo.write('src/generated/engine.ts', godClassOf(1.1 * MIB));
    const { report } = await checkHead();
    expect(report.change.complete).toBe(false);
    expect(report.verdict).toBe('incomplete');
    expect(report.costItems).toContainEqual(
      expect.objectContaining({
        category: 'loc',
        path: 'src/generated/engine.ts',
        detail: expect.stringContaining('too-large file of'),
      }),
    );
  });

  it('keeps a large image complete, priced by its size', async () => {
    commitBase();
    const png = Buffer.alloc(1.2 * MIB, 7);
    Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1').copy(png);
    repo.write('assets/hero.png', png);
    const { code, report } = await checkHead();
    expect(report.change.complete).toBe(true);
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
    expect(report.costItems).toContainEqual({
      category: 'loc',
      points: 308,
      path: 'assets/hero.png',
      detail: 'too-large file of 1228.8 KiB: 308 size units',
    });
  });

  it('judges a Git LFS pointer by the file it stands for: source incomplete, the rest by size', async () => {
    commitBase();
    const pointer = (size: number) =>
      `version https://git-lfs.github.com/spec/v1\noid sha256:${'4d7a2146'.repeat(8)}\nsize ${size}\n`;
    repo.write('.gitattributes', '*.ts filter=lfs diff=lfs merge=lfs -text\n*.rs filter=lfs\n');
    repo.write('src/engine.rs', pointer(48_213));
    const rust = await checkHead();
    expect(rust.report.costItems).toContainEqual({
      category: 'loc',
      points: 12,
      path: 'src/engine.rs',
      detail: 'Git LFS file of 47.1 KiB: 12 size units',
    });
    repo.write('src/engine.ts', pointer(48_213));
    const { code, report } = await checkHead();
    expect([report.verdict, code, report.change.complete]).toEqual(['incomplete', 2, false]);
    expect(report.change.notes).toContainEqual(
      expect.stringMatching(
        /^src\/engine\.ts: a Git LFS pointer, so its contents.*git lfs untrack/,
      ),
    );
  });

  it('prices a new dependency that brings 5,000 packages through a lockfile over 1 MiB', async () => {
    commitBase();
    const lock = lockWithBig(5000, true);
    expect(lock.length).toBeGreaterThan(1.1 * MIB);
    repo.write('package.json', packageJson({ dependencies: { big: '1.0.0' } }));
    repo.write('package-lock.json', lock);
    const { code, report } = await checkHead();
    expect(report.change.complete).toBe(true);
    expect(report.dependencies).toEqual([
      expect.objectContaining({ name: 'big', transitivePackages: 5000, points: 25_000 }),
    ]);
    expect(report.verdict).toBe('block');
    expect(code).toBe(1);
  });

  it('is incomplete when the lockfile that decides a new dependency is over its read limit', async () => {
    commitBase();
    const lock = lockWithBig(70_000, true);
    expect(lock.length).toBeGreaterThan(16 * MIB);
    repo.write('package.json', packageJson({ dependencies: { big: '1.0.0' } }));
    repo.write('package-lock.json', lock);
    const { code, report } = await checkHead();
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
    expect(report.change.notes).toContainEqual(
      expect.stringMatching(/^package-lock\.json is \d+ bytes, over the 16777216-byte read limit/),
    );
    expect(report.change.notes).toContainEqual(
      expect.stringMatching(/^package-lock\.json: a lockfile over the read limit/),
    );
  });

  it('prices packages a lockfile-only change adds, at per_transitive_package each', async () => {
    commitBase();
    repo.write('package-lock.json', lockfile(packagesOf('extra', 12_000, false)));
    const { code, report } = await checkHead();
    expect(report.change.complete).toBe(true);
    expect(report.costItems).toContainEqual({
      category: 'dependencies',
      points: 60_000,
      path: 'package-lock.json',
      detail: 'package-lock.json gains 12000 packages that no new dependency pulls in',
    });
    expect(report.cost.dependencies).toBe(60_000);
    expect(report.verdict).toBe('block');
    expect(code).toBe(1);
  });

  it('is incomplete when a class extends a parent past the re-export limit', async () => {
    // A generous core budget, so that only the hierarchy is judged.
    repo.write('.aureus/policy.yaml', 'version: 1\nbudgets:\n  core_files: 100\n');
    commitBase();
    repo.write('src/a.ts', 'export class A {\n  a = 1;\n}\n');
    repo.write('src/b.ts', "import { A } from './a';\nexport class B extends A {\n  b = 1;\n}\n");
    // Past 32 barrels in a row, C's parent would count as a library's class: one level.
    repo.write('src/barrels/r0.ts', "export * from '../b';\n");
    for (let index = 1; index <= 40; index++)
      repo.write(`src/barrels/r${index}.ts`, `export * from './r${index - 1}';\n`);
    repo.write(
      'src/c.ts',
      "import { B } from './barrels/r40';\nexport class C extends B {\n  c = 1;\n}\n",
    );
    repo.write('src/d.ts', "import { C } from './c';\nexport class D extends C {\n  d = 1;\n}\n");
    const { code, report } = await checkHead();
    expect(report.change.notes).toContainEqual(
      expect.stringMatching(
        /^src\/c\.ts could not be read at the head.*class C extends B, which is reached through more than 32 re-exports/,
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete for a whole-repository check that cannot read a source file', async () => {
    repo.write('src/engine.ts', godClassOf(1.1 * MIB));
    commitBase();
    const run = await runCliInProcess(['check', '--all', '--format', 'json'], repo.dir);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.verdict).toBe('incomplete');
    expect(run.code).toBe(2);
    expect(report.change.notes).toContainEqual(
      expect.stringMatching(/^src\/engine\.ts: TypeScript over the read limit/),
    );
  });
});
