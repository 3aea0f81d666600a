import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { checkAsJson } from '../support/run-cli-in-process.js';

/** 900 code lines in one class: a god class under the default policy. */
const HUGE = [
  'export class Huge {',
  ...Array.from({ length: 900 }, (_, i) => `  m${i}(): number { return ${i}; }`),
  '}',
  '',
].join('\n');

/**
 * The default `paths.ignore` holds `**\/dist/**` for build output: source code put in a folder
 * of that name and imported by the repository's code must not escape the price and the critic.
 */
describe('code the repository runs from an ignored folder', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('ignored-imports');
    repo.write('src/app.ts', 'export const app = 1;\n');
    repo.write('src/dist/notes.ts', 'export const notes = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const check = () => checkAsJson(repo.dir, base);

  it('is incomplete when the change edits an ignored file that source code imports', async () => {
    repo.write('src/dist/huge.ts', HUGE);
    repo.write(
      'src/app.ts',
      "import { Huge } from './dist/huge';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('a god class in an ignored folder, imported by the app');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringMatching(
        /src\/dist\/huge\.ts is under paths\.ignore, yet src\/app\.ts imports it/,
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when the change newly imports an ignored file an earlier one wrote', async () => {
    repo.write('src/dist/huge.ts', HUGE);
    base = repo.commit('a god class nothing imports yet');
    repo.write(
      'src/app.ts',
      "import { Huge } from './dist/huge';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('the app imports it');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringMatching(
        /src\/dist\/huge\.ts is under paths\.ignore, yet src\/app\.ts imports it/,
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when the change edits an ignored file only ignored code imports', async () => {
    repo.write(
      'src/dist/outer.ts',
      "import { inner } from './inner';\nexport const outer = inner;\n",
    );
    repo.write('src/dist/inner.ts', 'export const inner = 1;\n');
    repo.write('src/app.ts', "import { outer } from './dist/outer';\nexport const app = outer;\n");
    base = repo.commit('the app runs ignored code that imports more ignored code');
    repo.write('src/dist/huge.ts', HUGE);
    repo.write(
      'src/dist/inner.ts',
      "import { Huge } from './huge';\nexport const inner = new Huge().m1();\n",
    );
    repo.commit('a god class one ignored import further');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'src/dist/huge.ts is under paths.ignore, yet src/app.ts imports it through src/dist/outer.ts, then src/dist/inner.ts',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when an ignored file over the read limit stands in the import chain', async () => {
    // 1.1 MB of ignored code between the app and the file the change edits.
    const filler = Array.from(
      { length: 22_000 },
      (_, i) => `export const f${i} = ${i}; // padding to pass the read limit`,
    );
    repo.write(
      'src/dist/big.ts',
      ["import { inner } from './inner';", 'export const big = inner;', ...filler, ''].join('\n'),
    );
    repo.write('src/dist/inner.ts', 'export const inner = 1;\n');
    repo.write('src/app.ts', "import { big } from './dist/big';\nexport const app = big;\n");
    base = repo.commit('the app runs a large ignored file that imports more ignored code');
    repo.write('src/dist/inner.ts', `${HUGE}export const inner = new Huge().m1();\n`);
    const behind = repo.commit('a god class behind the large ignored file');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringMatching(
        /src\/dist\/big\.ts could not be read .*over the read limit of 1048576 bytes/,
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);

    // A change that leaves ignored code alone and reaches the file as the base did hides
    // nothing behind it: a repository that imports a large bundle is judged completely.
    base = behind;
    repo.write('src/other.ts', 'export const other = 2;\n');
    repo.commit('code beside the large ignored file');
    const beside = await check();
    expect(beside.report.reasons.join('\n')).not.toContain('could not be read');
    expect(beside.report.verdict).toBe('pass');
  });

  it('is incomplete when the change moves a submodule behind an ignored file over the read limit', async () => {
    // The large ignored file imports the submodule; a gitlink is not under paths.ignore, so the
    // change edits no ignored code, yet it changes what the unread file runs.
    const filler = Array.from(
      { length: 22_000 },
      (_, i) => `export const f${i} = ${i}; // padding to pass the read limit`,
    );
    repo.write(
      'src/dist/big.ts',
      [
        "import { lib } from '../../vendor/lib/index';",
        'export const big = lib;',
        ...filler,
        '',
      ].join('\n'),
    );
    repo.write('src/app.ts', "import { big } from './dist/big';\nexport const app = big;\n");
    pointSubmodule('1'.repeat(40));
    base = repo.commit('the app runs a large ignored file that imports a submodule');
    pointSubmodule('2'.repeat(40));
    repo.commit('another commit of the submodule behind the large ignored file');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringMatching(
        /src\/dist\/big\.ts could not be read .*over the read limit of 1048576 bytes/,
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when source code imports a linked source file', async () => {
    repo.write('src/dist/huge.ts', HUGE);
    repo.symlink('dist/huge.ts', 'src/huge.ts');
    repo.write(
      'src/app.ts',
      "import { Huge } from './huge';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('a god class reached through a link');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'src/huge.ts is a symbolic link, which AUREUS does not follow, yet src/app.ts imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when source code imports through a linked folder', async () => {
    repo.write('src/dist/huge.ts', HUGE);
    repo.symlink('dist', 'src/lib');
    repo.write(
      'src/app.ts',
      "import { Huge } from './lib/huge';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('a god class reached through a linked folder');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'src/lib is a symbolic link, which AUREUS does not follow, yet src/app.ts imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when source code imports through a linked folder by a tsconfig alias', async () => {
    repo.write('src/dist/huge.ts', HUGE);
    repo.symlink('dist', 'src/lib');
    repo.write(
      'tsconfig.json',
      `${JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } })}\n`,
    );
    repo.write(
      'src/app.ts',
      "import { Huge } from '@lib/huge';\nexport const app = new Huge().m1();\n",
    );
    repo.commit('a god class reached through an alias into a linked folder');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'src/lib is a symbolic link, which AUREUS does not follow, yet src/app.ts imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when Python code imports a module inside a linked folder', async () => {
    const huge = [
      'class Huge:',
      ...Array.from({ length: 900 }, (_, i) => `    def m${i}(self):\n        return ${i}`),
      '',
    ].join('\n');
    repo.write('dist/huge.py', huge);
    repo.symlink('dist', 'lib');
    repo.write('app.py', 'from lib.huge import Huge\n\napp = Huge().m1()\n');
    repo.commit('a god class reached through a linked Python package');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'lib is a symbolic link, which AUREUS does not follow, yet app.py imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when Python code imports a module whose file is a link', async () => {
    repo.write('dist/huge.py', 'class Huge:\n    def m(self):\n        return 1\n');
    repo.symlink('../dist/huge.py', 'lib/huge.py');
    repo.write('lib/__init__.py', '');
    repo.write('app.py', 'from lib.huge import Huge\n\napp = Huge().m()\n');
    repo.commit('a module whose file is a link');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'lib/huge.py is a symbolic link, which AUREUS does not follow, yet app.py imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when Go code imports a package inside a linked folder', async () => {
    repo.write('go.mod', 'module example.com/m\n\ngo 1.22\n');
    repo.write('dist/huge/huge.go', 'package huge\n\nfunc M() int { return 1 }\n');
    repo.symlink('dist', 'lib');
    repo.write(
      'main.go',
      'package main\n\nimport "example.com/m/lib/huge"\n\nfunc main() { huge.M() }\n',
    );
    repo.commit('a package reached through a linked folder');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'lib is a symbolic link, which AUREUS does not follow, yet main.go imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when Java code imports a class inside a linked folder', async () => {
    repo.write(
      'dist/lib/Huge.java',
      'package com.example.lib;\n\npublic class Huge {\n  public int m() { return 1; }\n}\n',
    );
    repo.symlink('../../../dist/lib', 'src/com/example/lib');
    repo.write(
      'src/com/example/App.java',
      'package com.example;\n\nimport com.example.lib.Huge;\n\npublic class App {\n  int run() { return new Huge().m(); }\n}\n',
    );
    repo.commit('a class reached through a linked folder');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'src/com/example/lib is a symbolic link, which AUREUS does not follow, yet src/com/example/App.java imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when Java code imports a class whose file is a link', async () => {
    repo.write(
      'dist/lib/Huge.java',
      'package com.example.lib;\n\npublic class Huge {\n  public int m() { return 1; }\n}\n',
    );
    repo.symlink('../../../../dist/lib/Huge.java', 'src/com/example/lib/Huge.java');
    // A class beside it makes the folder a package the analysis knows.
    repo.write(
      'src/com/example/lib/Other.java',
      'package com.example.lib;\n\npublic class Other {}\n',
    );
    repo.write(
      'src/com/example/App.java',
      'package com.example;\n\nimport com.example.lib.Huge;\n\npublic class App {\n  int run() { return new Huge().m(); }\n}\n',
    );
    repo.write(
      'src/com/example/Star.java',
      'package com.example;\n\nimport com.example.lib.*;\n\npublic class Star {\n  int run() { return new Huge().m(); }\n}\n',
    );
    repo.commit('a class whose file is a link');
    const { code, report } = await check();
    for (const importer of ['App', 'Star'])
      expect(report.reasons).toContainEqual(
        expect.stringContaining(
          `src/com/example/lib/Huge.java is a symbolic link, which AUREUS does not follow, yet src/com/example/${importer}.java imports it`,
        ),
      );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('is incomplete when the change moves a submodule source code imports', async () => {
    pointSubmodule('1'.repeat(40));
    repo.write(
      'src/app.ts',
      "import { lib } from '../vendor/lib/index';\nexport const app = lib;\n",
    );
    base = repo.commit('the app runs code from a submodule');
    pointSubmodule('2'.repeat(40));
    repo.commit('another commit of the submodule');
    const { code, report } = await check();
    expect(report.reasons).toContainEqual(
      expect.stringContaining(
        'vendor/lib is a submodule, a commit of another repository whose files AUREUS does not read, yet src/app.ts imports it',
      ),
    );
    expect(report.verdict).toBe('incomplete');
    expect(code).toBe(2);
  });

  it('judges a change that moves a submodule nothing imports as before', async () => {
    pointSubmodule('1'.repeat(40));
    base = repo.commit('a submodule the code does not run');
    pointSubmodule('2'.repeat(40));
    repo.commit('another commit of the submodule');
    const { code, report } = await check();
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
  });

  /** A gitlink at vendor/lib to `commit`, not checked out (an empty folder), as a clone has it. */
  function pointSubmodule(commit: string) {
    mkdirSync(join(repo.dir, 'vendor/lib'), { recursive: true });
    repo.git('update-index', '--add', '--cacheinfo', `160000,${commit},vendor/lib`);
  }

  it('judges a change that edits an ignored file nothing imports as before', async () => {
    repo.write('src/dist/notes.ts', 'export const notes = 2;\n');
    repo.commit('build output changes');
    const { code, report } = await check();
    expect(report.verdict).toBe('pass');
    expect(code).toBe(0);
  });

  describe('a package the repository commits under node_modules', () => {
    /** A package git tracks: code the repository keeps and runs, not one npm installed. */
    const commitPackage = () => {
      repo.write(
        'node_modules/helper/package.json',
        '{ "name": "helper", "version": "1.0.0", "main": "index.js" }\n',
      );
      repo.write(
        'node_modules/helper/index.js',
        'module.exports = function run(command) { return eval(command); };\n',
      );
      repo.write('src/app.ts', "import run from 'helper';\nexport const app = run('1');\n");
      repo.commit('the app runs a package the repository commits');
    };

    it('is incomplete under the default paths.ignore, which holds node_modules', async () => {
      commitPackage();
      const { code, report } = await check();
      expect(report.reasons).toContainEqual(
        expect.stringMatching(
          /node_modules\/helper\/index\.js is under paths\.ignore, yet src\/app\.ts imports it/,
        ),
      );
      expect(report.verdict).toBe('incomplete');
      expect(code).toBe(2);
    });
  });
});
