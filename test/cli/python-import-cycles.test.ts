import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** A src/ layout package whose root pyproject.toml names, as setuptools users write it. */
const PYPROJECT = '[project]\nname = "shop"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n';

interface Finding {
  readonly ruleId: string;
  readonly symbol: string;
  readonly blocking: boolean;
}

describe('aureus on Python import cycles', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('python-cycles');
    repo.write('pyproject.toml', PYPROJECT);
    repo.write('src/shop/__init__.py', '');
    repo.write('src/shop/orders.py', 'class Order:\n    total = 0\n');
    repo.write(
      'src/shop/pricing.py',
      'from shop.orders import Order\n\n\ndef price(order: Order) -> int:\n    return order.total\n',
    );
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  async function cycles(policy = ''): Promise<string[][]> {
    if (policy !== '') repo.write('.aureus/policy.yaml', `version: 1\n${policy}`);
    const run = await runCliInProcess(['analyze', '--format', 'json'], repo.dir);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout).cycles;
  }

  it('finds a two-file cycle through an absolute and a relative import', async () => {
    repo.write('src/shop/orders.py', 'from . import pricing\n\n\nclass Order:\n    total = 0\n');
    repo.commit('cycle');
    expect(await cycles()).toEqual([['src/shop/orders.py', 'src/shop/pricing.py']]);
  });

  it('blocks a change that closes the cycle as circular_dependency', async () => {
    repo.write('src/shop/orders.py', 'from shop import pricing\n\n\nclass Order:\n    total = 0\n');
    repo.commit('cycle');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    const found = (report.findings as Finding[]).filter(
      ({ ruleId }) => ruleId === 'circular_dependency',
    );
    expect(found).toEqual([
      expect.objectContaining({
        symbol: 'src/shop/orders.py\nsrc/shop/pricing.py',
        blocking: true,
      }),
    ]);
    expect([report.verdict, run.code]).toEqual(['block', 1]);
  });

  it('leaves out of cycles an import inside a function, the way Python breaks a cycle', async () => {
    repo.write(
      'src/shop/orders.py',
      'class Order:\n    total = 0\n\n    def repriced(self):\n        from shop.pricing import price\n\n        return price(self)\n',
    );
    repo.commit('deferred import');
    expect(await cycles()).toEqual([]);
    const counted =
      'forbidden_patterns:\n  circular_dependency:\n    count_type_only_imports: true\n';
    expect(await cycles(counted)).toEqual([]);
  });

  it('counts an import under `if TYPE_CHECKING:` only when the policy counts type-only imports', async () => {
    repo.write(
      'src/shop/orders.py',
      'import typing\n\nif typing.TYPE_CHECKING:\n    from shop.pricing import price\n\n\nclass Order:\n    total = 0\n',
    );
    repo.commit('typing cycle');
    expect(await cycles()).toEqual([]);
    const counted =
      'forbidden_patterns:\n  circular_dependency:\n    count_type_only_imports: true\n';
    expect(await cycles(counted)).toEqual([['src/shop/orders.py', 'src/shop/pricing.py']]);
  });

  it('judges incompletely when a pyproject.toml is a link, which it does not follow', async () => {
    repo.git('rm', '--quiet', 'pyproject.toml');
    repo.symlink('/dev/zero', 'pyproject.toml');
    repo.commit('linked config');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    expect([JSON.parse(run.stdout).verdict, run.code]).toEqual(['incomplete', 2]);
    expect(run.stdout).toContain('pyproject.toml');
  });
});

describe('aureus on the configs of Python projects', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  afterEach(() => repo.remove());

  /** A base commit holding `files`, with nothing importing anything yet. */
  async function repoWith(files: Record<string, string>): Promise<void> {
    repo = await makeRepo('python-projects');
    for (const [path, text] of Object.entries(files)) repo.write(path, text);
    base = repo.commit('base');
  }

  async function check(): Promise<{
    verdict: string;
    code: number;
    cycles: string[];
    out: string;
  }> {
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    const cycles = (report.findings as Finding[])
      .filter(({ ruleId }) => ruleId === 'circular_dependency')
      .map(({ symbol }) => symbol);
    return { verdict: report.verdict, code: run.code, cycles, out: run.stdout };
  }

  const APP = { 'app/__init__.py': '', 'app/a.py': 'A = 1\n', 'app/b.py': 'B = 2\n' };
  function closeAppCycle(folder = 'app'): void {
    repo.write(`${folder}/a.py`, 'from app.b import B\n\nA = B\n');
    repo.write(`${folder}/b.py`, 'from app.a import A\n\nB = 2\n');
  }

  it('blocks a cycle that a pyproject.toml elsewhere pins the package away from', async () => {
    await repoWith(APP);
    closeAppCycle();
    repo.write('tests/fixtures/pyproject.toml', '[tool.setuptools.package-dir]\napp = "nothing"\n');
    repo.commit('cycle and a fixture config');
    expect(await check()).toMatchObject({
      verdict: 'block',
      code: 1,
      cycles: ['app/a.py\napp/b.py'],
    });
  });

  it('blocks a cycle that another project’s copy of the package would shadow', async () => {
    await repoWith(APP);
    closeAppCycle();
    repo.write('aaa/pyproject.toml', '');
    for (const [path, text] of Object.entries(APP)) repo.write(`aaa/${path}`, text);
    repo.commit('cycle and a copy in another project');
    expect(await check()).toMatchObject({
      verdict: 'block',
      code: 1,
      cycles: ['app/a.py\napp/b.py'],
    });
  });

  it('blocks a relative cycle in one service of a monorepo, not through the other', async () => {
    const service = (name: string) => ({
      [`${name}/pyproject.toml`]: `[project]\nname = "${name}"\n`,
      [`${name}/app/__init__.py`]: '',
      [`${name}/app/main.py`]: 'def run():\n    return 1\n',
      [`${name}/app/config.py`]: 'X = 1\n',
    });
    await repoWith({ ...service('svc_a'), ...service('svc_b') });
    repo.write('svc_b/app/main.py', 'from .config import X\n\n\ndef run():\n    return X\n');
    repo.write('svc_b/app/config.py', 'from .main import run\n\nX = 1\n');
    repo.commit('cycle in svc_b');
    expect(await check()).toMatchObject({
      verdict: 'block',
      code: 1,
      cycles: ['svc_b/app/config.py\nsvc_b/app/main.py'],
    });
  });

  it.each([
    ['is no valid TOML', '[project]\nname = "x"\nname = "y"\n', 'not valid TOML'],
    ['is binary', Buffer.from([0, 159, 146, 150, 0, 1]), 'not text (binary)'],
  ])('judges incompletely when the pyproject.toml naming the roots %s', async (_, text, says) => {
    await repoWith({
      'pyproject.toml': '[tool.setuptools.packages.find]\nwhere = ["lib"]\n',
      ...Object.fromEntries(Object.entries(APP).map(([path, t]) => [`lib/${path}`, t])),
    });
    closeAppCycle('lib/app');
    repo.write('pyproject.toml', text);
    repo.commit('cycle and a broken config');
    const run = await check();
    expect([run.verdict, run.code]).toEqual(['incomplete', 2]);
    expect(run.out).toContain(`pyproject.toml could not be read at the head`);
    expect(run.out).toContain(says);
    expect(run.out).toContain('To resolve');
  });
});
