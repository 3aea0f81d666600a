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
 * A module loader reached other than by a plain call (`require.call`, `[require][0]`, an object
 * holding `module`, `module.constructor._load`, a worker's entry named at run time) loads code
 * the analysis cannot name: each is the finding a `require` of a computed name is, never a pass.
 */
describe('module loaders reached other than by a plain call', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('loader-references');
    repo.write('src/app.js', 'exports.app = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const check = () => checkAsJson(repo.dir, base);

  const HIDDEN: readonly (readonly [string, string])[] = [
    ['call', "require.call(null, 'child_process');"],
    ['bind', "require.bind(null)('child_process');"],
    ['computed', "module['require'](process.argv[2]);"],
    ['array', "[require][0]('child_process');"],
    ['module-alias', "const m = module;\nm.require('child_process');"],
    ['object', "const o = { load: require };\no.load('child_process');"],
    ['shorthand', "const o = { require };\no.require('child_process');"],
    ['main', "const { main } = require;\nmain.require('child_process');"],
    ['main-module', "const { mainModule: { require: r } } = process;\nr('child_process');"],
    ['assigned', "let load;\n({ require: load } = module);\nload('child_process');"],
    ['constructor', "module.constructor._load('child_process');"],
    [
      'worker',
      "const { Worker } = require('worker_threads');\nnew Worker(__dirname + '/build/engine.js');",
    ],
    ['namespace-prototype', "import * as m from 'module';\nm.prototype.require('child_process');"],
    ['namespace-class', "import * as m from 'node:module';\nm.Module._load('child_process');"],
    ['default-import', "import Module from 'module';\nModule._load('child_process');"],
    [
      'renamed-factory',
      "import { createRequire as make } from 'module';\nmake(import.meta.url)('child_process');",
    ],
  ];

  it.each(HIDDEN)('finds the loader reached through %s', async (name, code) => {
    repo.write(`src/${name}.js`, `${code}\n`);
    repo.commit(`a loader reached through ${name}`);
    const { code: exit, report } = await check();
    expect(report.reasons).toContainEqual(expect.stringMatching(LOADS));
    expect(
      report.costItems.filter(
        (item: CostItem) => item.category === 'security' && item.path === `src/${name}.js`,
      ),
    ).toContainEqual(expect.objectContaining({ detail: expect.stringMatching(/eval/) }));
    expect(report.verdict).toBe('block');
    expect(exit).toBe(1);
  });

  it("reads a literal-keyed member as the dotted one: module['require'] imports, fs['writeFileSync'] writes", async () => {
    repo.write(
      'src/tool.js',
      [
        "const cp = module['require']('child_process');",
        "const fs = require('fs');",
        "fs['writeFileSync']('out.txt', String(cp));",
        '',
      ].join('\n'),
    );
    repo.commit('members named by literals');
    const { report } = await check();
    const security = report.costItems
      .filter((item: CostItem) => item.category === 'security')
      .map((item: CostItem) => item.detail);
    expect(security).toEqual([
      'new process_spawn surface: imports child_process',
      'new filesystem_write surface: calls fs.writeFileSync',
    ]);
    expect(report.reasons.join('\n')).not.toMatch(LOADS);
  });

  it('takes uses that load nothing for plain ones: typeof, require.resolve, require.cache, require.main === module, a local named module', async () => {
    repo.write(
      'src/cli.js',
      [
        "const path = require.resolve('./app');",
        'delete require.cache[path];',
        "if (typeof require === 'function' && require.main === module) {",
        '  module.exports = { path, file: require.main.filename };',
        '}',
        'exports.names = (imports) => imports.map(({ module }) => String(module));',
        '',
      ].join('\n'),
    );
    repo.commit('plain uses of the loader');
    const { code, report } = await check();
    expect(report.reasons.join('\n')).not.toMatch(LOADS);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
  });

  it("takes the module module's data and createRequire through its namespace for plain uses", async () => {
    repo.write(
      'src/esm.mjs',
      [
        "import * as m from 'node:module';",
        'const load = m.createRequire(import.meta.url);',
        "export const app = load('./app.js');",
        'export const builtin = (name) => m.builtinModules.includes(name) || m.isBuiltin(name);',
        '',
      ].join('\n'),
    );
    repo.commit('plain uses of the module module');
    const { report } = await check();
    expect(report.reasons.join('\n')).not.toMatch(LOADS);
    expect(report.findings).toEqual([]);
  });

  it.each([
    [
      'builtins',
      'import builtins\n\ndef run(name):\n    return builtins.__import__("subprocess")\n',
    ],
    ['alias', 'imp = __import__\n\ndef run():\n    return imp("subprocess")\n'],
    [
      'passed',
      'import importlib\n\ndef run(load=importlib.import_module):\n    return load("subprocess")\n',
    ],
  ])('finds the Python loader reached through %s', async (name, code) => {
    repo.write(`src/${name}.py`, code);
    repo.commit(`a Python loader reached through ${name}`);
    const { code: exit, report } = await check();
    expect(report.reasons).toContainEqual(expect.stringMatching(/loads code through __import__/));
    expect(report.verdict).toBe('block');
    expect(exit).toBe(1);
  });
});
