import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** A new file of one small function: two cost items, its lines and the file itself. */
function writeFunction(repo: Repo, name: string): void {
  repo.write(
    `src/${name}.ts`,
    `export function ${name}(n: number): number {\n  return n + 1;\n}\n`,
  );
}

/** The cost lines of a text report: a signed number, a category, a path. */
function costLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^ +[+-][\d.]+ {2}(loc|files) {2}src\//.test(line));
}

describe('aureus check: lists capped in the terminal', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('check-capped-lists');
    repo.write('.aureus/policy.yaml', 'version: 1\n');
    repo.write('src/util.ts', 'export function twice(n: number): number {\n  return n * 2;\n}\n');
    repo.commit('base');
  });
  afterEach(() => repo.remove());

  it('shows the one item over the cap rather than "… and 1 more" in its place', async () => {
    writeFunction(repo, 'first');
    writeFunction(repo, 'second');
    repo.commit('two files');

    const run = await runCliInProcess(['check', '--commit', 'HEAD'], repo.dir);

    expect(run.code).toBe(0);
    expect(costLines(run.stdout)).toHaveLength(4);
    expect(run.stdout).not.toContain('more');
  });

  it('still caps a list two items over, and says how many are left out', async () => {
    writeFunction(repo, 'first');
    writeFunction(repo, 'second');
    repo.write(
      'src/util.ts',
      'export function twice(n: number): number {\n  const doubled = n * 2;\n  return doubled;\n}\n',
    );
    repo.commit('two files and an edit');

    const run = await runCliInProcess(['check', '--commit', 'HEAD'], repo.dir);

    expect(run.code).toBe(0);
    expect(costLines(run.stdout)).toHaveLength(3);
    expect(run.stdout).toContain('… and 2 more');
  });
});
