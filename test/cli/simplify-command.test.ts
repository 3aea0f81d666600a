import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { overEngineeredRepos } from '../reflexion/support/over-engineered-repo.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

let restoreGit: () => Promise<void>;
const repos = overEngineeredRepos('simplify-cli');
const fixtureRepo = () => repos.make({ '.gitignore': '.aureus/local/\n' });

beforeAll(async () => {
  restoreGit = await isolateGit();
});

const extraRepos: Array<{ remove(): Promise<void> }> = [];

afterAll(async () => {
  for (const repo of extraRepos.splice(0)) await repo.remove();
  await repos.removeAll();
  await restoreGit();
});

const ledgerKinds = (repo: Repo): string[] =>
  readFileSync(join(repo.dir, '.aureus', 'local', 'ledger.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { record: { kind: string } }).record.kind);

describe('aureus simplify', () => {
  it('lists the verified patches and the dropped proposals, writes nothing, records the run', async () => {
    const repo = await fixtureRepo();
    const run = await runCliInProcess(['simplify'], repo.dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^AUREUS simplify: 5 files read, 2 verified patches; 3 more for the next run; 1 proposal dropped\.$/m,
    );
    expect(run.stdout).toContain('Remove unused export `legacyArea` (src/areas.ts:');
    expect(run.stdout).toContain('For the next run (they clash with a patch above):');
    expect(run.stdout).toContain('Run aureus simplify --apply to write them');
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(ledgerKinds(repo)).toEqual(['simplify']);
  });

  it('lists what it finds in Python and Go by location, with no patch', async () => {
    const repo = await repos.make({
      '.gitignore': '.aureus/local/\n',
      'tools/report.py':
        'def _title(x):\n    return x.title()\n\ndef main(name):\n    return _title(name)\n',
    });
    const run = await runCliInProcess(['simplify'], repo.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'In Python and Go (no patch yet; by hand):\n  - Inline `_title`, a one-statement function called once (tools/report.py:1)',
    );
    const json = await runCliInProcess(['simplify', '--format', 'json'], repo.dir);
    expect((JSON.parse(json.stdout) as { findings: unknown[] }).findings).toEqual([
      {
        pass: 'inline-trivial-function',
        title: 'Inline `_title`, a one-statement function called once',
        path: 'tools/report.py',
        line: 1,
      },
    ]);
  });

  it('prints the patches as one diff that git applies', async () => {
    const repo = await fixtureRepo();
    const run = await runCliInProcess(['simplify', '--format', 'diff'], repo.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('diff --git a/src/areas.ts b/src/areas.ts');
    const check = spawnSync('git', ['apply', '--check', '-'], { cwd: repo.dir, input: run.stdout });
    expect(check.stderr.toString()).toBe('');
    expect(check.status).toBe(0);
  });

  it('--apply writes them, round after round until nothing is left; json says what was written', async () => {
    const repo = await fixtureRepo();
    const run = await runCliInProcess(['simplify', '--apply', '--format', 'json'], repo.dir);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      written: boolean;
      rounds: number;
      stoppedAtBound: boolean;
      deferred: unknown[];
      patches: { pass: string; cost: { total: number } }[];
    };
    expect(result.written).toBe(true);
    // What took four runs before: a patch that goes in makes the next one possible.
    expect(result.patches.map((patch) => patch.pass)).toEqual([
      'unused-code',
      'unused-code',
      'single-implementation',
      'static-only-class',
      'pass-through-wrapper',
    ]);
    expect(result).toMatchObject({ rounds: 5, stoppedAtBound: false, deferred: [] });
    expect(result.patches.every((patch) => patch.cost.total < 0)).toBe(true);
    expect(repo.git('status', '--porcelain').split('\n').sort()).toEqual([
      ' D src/shape.ts',
      ' M src/areas.ts',
      ' M src/circle.ts',
      ' M src/main.ts',
      ' M src/math-util.ts',
    ]);
    const again = await runCliInProcess(['simplify', '--apply'], repo.dir);
    expect(again.stdout).toContain('AUREUS simplify: 4 files read, 0 verified patches; 0 more');
  });

  it('refuses --test without --apply, and an unknown format, with how to fix it', async () => {
    const repo = await fixtureRepo();
    const test = await runCliInProcess(['simplify', '--test'], repo.dir);
    expect(test.code).toBe(2);
    expect(test.stderr).toContain('add --apply');
    const format = await runCliInProcess(['simplify', '--format', 'sarif'], repo.dir);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('use --format text, diff or json');
  });

  it('says why each candidate it declines is left alone, and that Python gets no patch', async () => {
    const repo = await makeRepo('simplify-declined');
    extraRepos.push(repo);
    repo.write('.gitignore', '.aureus/local/\n');
    repo.write(
      'src/store.ts',
      [
        'export interface Store<T> {\n  get(key: string): T | undefined;\n}\n',
        'export class MemoryStore implements Store<number> {\n  get(key: string): number | undefined {\n    return key.length;\n  }\n}\n',
        'export abstract class Shape {\n  abstract area(): number;\n  describe(): string {\n    return "area " + this.area();\n  }\n}\n',
        'export class Square extends Shape {\n  area(): number {\n    return 4;\n  }\n}\n',
      ].join('\n'),
    );
    repo.write(
      'src/main.ts',
      "import { MemoryStore, type Store, Square, type Shape } from './store';\nconst store: Store<number> = new MemoryStore();\nconst shape: Shape = new Square();\nconsole.log(store.get('a'), shape.describe());\n",
    );
    repo.write('tools/report.py', 'def main(name):\n    return name.title()\n');
    repo.commit('base');

    const run = await runCliInProcess(['simplify'], repo.dir);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^AUREUS simplify: 2 files read, 0 verified patches;/);
    expect(run.stdout).toContain(
      'Left alone (2 candidates):\n' +
        '  - interface `Store` (src/store.ts:1): `MemoryStore` is its only implementation, but it is generic, and its users would lose the type it is given\n' +
        '  - abstract class `Shape` (src/store.ts:11): `Square` is its only subclass, but it holds more than abstract declarations (a method body, a field, a constructor, a decorator or a base), which the subclass inherits\n',
    );
    expect(run.stdout).toContain(
      'Not patched: 1 Python, Go or Java file (reflexion writes patches for TypeScript and JavaScript only).',
    );
    const json = await runCliInProcess(['simplify', '--format', 'json'], repo.dir);
    expect((JSON.parse(json.stdout) as { declined: unknown[] }).declined).toHaveLength(2);
  });
});
