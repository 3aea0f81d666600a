import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { checkAsJson } from '../support/run-cli-in-process.js';

interface CostItem {
  readonly category: string;
  readonly path: string | null;
  readonly detail: string;
}

const LOADS = /loads code through a require\(\) of a module named at run time/;

/**
 * Routes to code that passed as plain data: Function's constructor reached through a value, `process.getBuiltinModule` (a loader of built-ins),
 * `process.dlopen` (native code), a module object taken from `require.cache` (whose `require`
 * loads anything), and a module written inline as a `data:` or `blob:` URL.
 */
describe('code loaded through process, require.cache and inline modules', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('hidden-loaders');
    repo.write('src/app.js', 'exports.app = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const securityOf = (report: { costItems: CostItem[] }, path: string) =>
    report.costItems
      .filter((item) => item.category === 'security' && item.path === path)
      .map((item) => item.detail);

  it.each([
    ['builtin', "process.getBuiltinModule('child_process').execSync('id');"],
    ['builtin-key', "process['getBuiltinModule']('node:child_process').execSync('id');"],
  ])('reads a built-in named by a literal as an import of it (%s)', async (name, code) => {
    repo.write(`src/${name}.js`, `${code}\n`);
    repo.commit(`a built-in through ${name}`);
    const { report } = await checkAsJson(repo.dir, base);
    expect(securityOf(report, `src/${name}.js`)).toEqual([
      'new process_spawn surface: imports child_process',
    ]);
  });

  it('prices native code loaded by its path as code evaluated at run time', async () => {
    repo.write('src/addon.js', 'process.dlopen({ exports: {} }, process.argv[2]);\n');
    repo.commit('an addon loaded by its path');
    const { report } = await checkAsJson(repo.dir, base);
    expect(securityOf(report, 'src/addon.js')).toEqual(['new eval surface: calls process.dlopen']);
  });

  it.each([
    ['builtin-computed', 'process.getBuiltinModule(process.argv[2]);'],
    ['builtin-taken', "const { getBuiltinModule: load } = process;\nload('child_process');"],
    ['process-alias', "const p = process;\np.getBuiltinModule('child_process');"],
    ['dlopen-taken', 'const { dlopen } = process;\ndlopen({ exports: {} }, process.argv[2]);'],
    ['cache-entry', "require.cache[process.argv[2]].require('child_process');"],
    ['cache-values', "Object.values(require.cache)[0].require('child_process');"],
    ['cache-alias', "const r = require;\nr.cache[process.argv[2]].require('child_process');"],
  ])('finds the loader reached through %s', async (name, code) => {
    repo.write(`src/${name}.js`, `${code}\n`);
    repo.commit(`a loader reached through ${name}`);
    const { code: exit, report } = await checkAsJson(repo.dir, base);
    expect(report.reasons).toContainEqual(expect.stringMatching(LOADS));
    expect(securityOf(report, `src/${name}.js`)).toContainEqual(expect.stringMatching(/eval/));
    expect(report.verdict).toBe('block');
    expect(exit).toBe(1);
  });

  it.each([
    ['dynamic', 'import(\'data:text/javascript,import("child_process")\');'],
    ['static', "import run from 'DATA:text/javascript,export default 1';\nrun();"],
    ['reexport', "export * from 'blob:nodedata:0123';"],
  ])('prices a module written inline (%s) as code evaluated from a string', async (name, code) => {
    repo.write(`src/${name}.mjs`, `${code}\n`);
    repo.commit(`an inline module (${name})`);
    const { report } = await checkAsJson(repo.dir, base);
    expect(securityOf(report, `src/${name}.mjs`)).toEqual([
      'new eval surface: evaluates code (eval)',
    ]);
    expect(report.findings).toContainEqual(expect.objectContaining({ ruleId: 'reflection' }));
  });

  it.each([
    ['kept', 'const f = [].constructor.constructor;\nf(process.argv[2])();'],
    ['called', '({}).constructor.constructor.call(null, process.argv[2])();'],
    ['computed', "const c = 'constructor';\n''[c][c](process.argv[2])();"],
    ['half-computed', "const c = 'constructor';\n[].constructor[c](process.argv[2])();"],
  ])(
    "prices Function's constructor reached through a value (%s) as new Function",
    async (name, code) => {
      repo.write(`src/${name}.js`, `${code}\n`);
      repo.commit(`Function reached (${name})`);
      const { report } = await checkAsJson(repo.dir, base);
      expect(securityOf(report, `src/${name}.js`)).toEqual(['new eval surface: new Function']);
    },
  );

  it("leaves a constructor's name, a grid's cells and a class's static lookup plain", async () => {
    repo.write(
      'src/grid.js',
      'exports.cell = (grid, i, j) => [grid[i][j], grid[0][0], grid[i][i], grid.constructor.name];\n' +
        'exports.Model = class { get(name) { return this.constructor[name]; } };\n',
    );
    repo.commit('a grid');
    const { report } = await checkAsJson(repo.dir, base);
    expect(securityOf(report, 'src/grid.js')).toEqual([]);
  });

  it.each([
    [
      'spec',
      'import importlib.util\n\ndef run(path):\n    spec = importlib.util.spec_from_file_location("m", path)\n    module = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(module)\n    return module\n',
    ],
    [
      'loader',
      'from importlib.machinery import SourceFileLoader\n\ndef run(path):\n    return SourceFileLoader("m", path).load_module()\n',
    ],
  ])('prices Python loading a source file by its path (%s) as runpy', async (name, code) => {
    repo.write(`src/${name}.py`, code);
    repo.commit(`Python loads a file by path (${name})`);
    const { report } = await checkAsJson(repo.dir, base);
    expect(report.reasons).toContainEqual(expect.stringMatching(/loads code through __import__/));
    expect(securityOf(report, `src/${name}.py`)).toEqual([
      'new eval surface: loads a module named at run time (__import__)',
    ]);
  });

  it('leaves plain uses of process and of require.cache plain', async () => {
    repo.write(
      'src/cli.js',
      [
        "const key = require.resolve('./app');",
        'if (key in require.cache) delete require.cache[key];',
        "process.stdout.write(process.argv.join(' '));",
        "process.on('exit', () => process.exit(process.exitCode));",
        '',
      ].join('\n'),
    );
    repo.commit('plain uses');
    const { report } = await checkAsJson(repo.dir, base);
    expect(report.reasons.join('\n')).not.toMatch(LOADS);
    expect(report.findings).toEqual([]);
  });
});
