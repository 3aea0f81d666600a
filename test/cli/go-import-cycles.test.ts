import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const GO_MOD = 'module example.com/shop\n\ngo 1.21\n';

/** A Go file of package `name` importing the module's packages `imports`. */
function goFile(name: string, imports: readonly string[], body = ''): string {
  const lines = imports.map((path) => `\t"example.com/shop/${path}"`);
  return `package ${name}\n\nimport (\n\t"fmt"\n${lines.join('\n')}\n)\n\nvar _ = fmt.Sprint\n${body}`;
}

describe('Go import cycles', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('go-cycles');
    repo.write('go.mod', GO_MOD);
    repo.write('orders/orders.go', goFile('orders', ['billing']));
    repo.write('orders/ids.go', 'package orders\n\nfunc NextID() int { return 1 }\n');
    repo.write('billing/billing.go', goFile('billing', []));
    repo.write('billing/billing_test.go', goFile('billing', ['orders']));
    base = repo.commit('two packages, one import');
  });
  afterEach(() => repo.remove());

  it('finds a cycle between two packages as the files whose imports close it', async () => {
    const before = JSON.parse(
      (await runCliInProcess(['analyze', '--format', 'json'], repo.dir)).stdout,
    );
    // A test file's import is no cycle: only the go command's test binary imports it.
    expect(before.cycles).toEqual([]);
    repo.write('billing/invoice.go', goFile('billing', ['orders']));
    repo.commit('billing imports orders back');
    const run = await runCliInProcess(['analyze'], repo.dir);
    expect(run.stdout).toContain(
      'Import cycles (runtime imports; type-only imports not counted): 1.\n  1. 2 files:\n     billing/invoice.go\n     orders/orders.go\n',
    );
  });

  it('leaves a program kept beside a package by //go:build ignore out of the package', async () => {
    repo.write('billing/gen.go', `//go:build ignore\n\n${goFile('main', ['orders'])}`);
    repo.write('orders/gen.go', `//go:build ignore\n\n${goFile('main', ['billing'])}`);
    repo.commit('generators');
    const run = JSON.parse(
      (await runCliInProcess(['analyze', '--format', 'json'], repo.dir)).stdout,
    );
    expect(run.cycles).toEqual([]);
  });

  it('blocks a change that closes a package cycle as circular_dependency', async () => {
    repo.write('billing/invoice.go', goFile('billing', ['orders']));
    repo.commit('billing imports orders back');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'circular_dependency',
        symbol: 'billing/invoice.go\norders/orders.go',
        status: 'new',
        blocking: true,
      }),
    );
    expect(report.verdict).toBe('block');
    expect(run.code).toBe(1);
  });

  it('blocks a cycle whose imports a renamed module path makes look external', async () => {
    // The go command fails on the stale import paths, yet under the head's own go.mod they name
    // another module: judged by that alone, the cycle is gone.
    repo.write('go.mod', 'module example.com/renamed\n\ngo 1.21\n');
    repo.write('billing/invoice.go', goFile('billing', ['orders']));
    repo.commit('the module is renamed, billing imports orders back');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        ruleId: 'circular_dependency',
        symbol: 'billing/invoice.go\norders/orders.go',
        status: 'new',
        blocking: true,
      }),
    );
    expect(run.code).toBe(1);
  });

  it('is incomplete when a go.mod cannot be read: the modules it declares are unknown', async () => {
    repo.write('real.mod', GO_MOD);
    repo.git('rm', '-q', 'go.mod');
    repo.symlink('real.mod', 'go.mod');
    repo.commit('go.mod is a link');
    const run = await runCliInProcess(['check', '--commit', 'HEAD', '--format', 'json'], repo.dir);
    expect(JSON.parse(run.stdout).verdict).toBe('incomplete');
    expect(run.code).toBe(2);
  });

  it('is incomplete when a go.mod declares no module: its imports cannot be told apart', async () => {
    repo.write('go.mod', 'go 1.21\n');
    repo.write('billing/billing.go', goFile('billing', ['orders']));
    repo.commit('go.mod loses its module line, billing imports orders back');
    const run = await runCliInProcess(['check', '--commit', 'HEAD', '--format', 'json'], repo.dir);
    const report = JSON.parse(run.stdout);
    expect(report.reasons).toContainEqual(
      expect.stringMatching(/go\.mod could not be read at the head.*declares no module/),
    );
    expect(report.verdict).toBe('incomplete');
    expect(run.code).toBe(2);
  });
});
