import { readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { makeTempDir } from '../support/temp-dir.js';
import {
  aureus,
  commit,
  hookLineFor,
  indexDigest,
  makeNodeRepo,
  OVER_BUDGET,
  ROOT,
  run,
  SMALL_CHANGE,
  settleIndex,
  TINY_POLICY,
  useHookTestEnvironment,
  writeAureusShim,
} from './hook-fixture.js';

/** AUREUS's line in a plain pre-commit script: aureus from the PATH, or one line saying it is missing. */
const PLAIN_PRE_COMMIT =
  "if command -v aureus >/dev/null 2>&1; then aureus hook pre-commit || exit $?; else echo 'AUREUS: the aureus command is not on the PATH, so the pre-commit hook checked nothing (the CI check still does). To resolve, install it: npm install --global <an AUREUS clone, or the .tgz that npm pack makes in it>.' >&2; fi";

describe('aureus hooks install / uninstall', () => {
  const cleanups: Array<() => Promise<void>> = [];
  useHookTestEnvironment();
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const nodeRepo = async (prefix: string, packageDir = '.') => {
    const repo = await makeNodeRepo(prefix, packageDir);
    cleanups.push(repo.remove);
    return repo;
  };
  const read = (repo: Repo, path: string) => readFileSync(join(repo.dir, path), 'utf8');
  const stage = (repo: Repo, path: string, text: string) => {
    repo.write(path, text);
    repo.git('add', path);
  };

  it('merges with an existing lint-staged pre-commit, and both run on a real commit', async () => {
    const repo = await nodeRepo('lint-staged');
    // A project set up with husky and lint-staged before AUREUS came.
    const marker = join(repo.dir, '.git', 'linted.txt');
    const task = join(repo.dir, 'lint-task.mjs');
    writeFileSync(
      task,
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marker)}, process.argv.slice(2).join('\\n') + '\\n');\n`,
    );
    const manifest = JSON.parse(read(repo, 'package.json'));
    manifest.scripts = { prepare: 'husky', test: 'node --test' };
    manifest.devDependencies.husky = '^9.0.11';
    manifest['lint-staged'] = { '*.ts': `node ${task}` };
    repo.write('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
    repo.write('.husky/pre-commit', 'lint-staged\n');
    symlinkSync(
      join(ROOT, 'node_modules', 'lint-staged', 'bin', 'lint-staged.js'),
      join(repo.dir, 'node_modules', '.bin', 'lint-staged'),
    );
    repo.commit('husky and lint-staged');
    const manifestBefore = read(repo, 'package.json');

    const install = aureus(repo.dir, ['hooks', 'install']);

    expect(install.code).toBe(0);
    expect(read(repo, '.husky/pre-commit')).toBe(`lint-staged\n${hookLineFor('pre-commit')}\n`);
    // husky already declared (in its own version) and already in prepare: left alone.
    expect(read(repo, 'package.json')).toBe(manifestBefore);
    expect(repo.git('config', 'core.hooksPath')).toBe('.husky/_');
    repo.commit('add aureus');

    stage(repo, 'src/small.ts', SMALL_CHANGE);
    const passing = commit(repo, ['-q', '-m', 'small']);
    expect(passing.code).toBe(0);
    expect(passing.output).toContain('AUREUS: PASS');
    expect(readFileSync(marker, 'utf8')).toContain('src/small.ts');

    stage(repo, 'src/over.ts', OVER_BUDGET);
    const blocked = commit(repo, ['-q', '-m', 'over']);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('AUREUS: BLOCK');
    expect(readFileSync(marker, 'utf8')).toContain('src/over.ts');
  });

  it('is idempotent: a re-run changes nothing and never duplicates a line', async () => {
    const repo = await nodeRepo('idempotent');
    expect(aureus(repo.dir, ['hooks', 'install', 'pre-push']).code).toBe(0);
    const files = ['package.json', '.husky/pre-commit', '.husky/pre-push'];
    const first = files.map((file) => read(repo, file));
    const again = aureus(repo.dir, ['hooks', 'install', 'pre-push']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('hooks already installed');
    expect(files.map((file) => read(repo, file))).toEqual(first);
    // Adding commit-msg later rewrites AUREUS's pre-commit line in place, still once.
    expect(aureus(repo.dir, ['hooks', 'install', 'commit-msg']).code).toBe(0);
    expect(read(repo, '.husky/pre-commit')).toBe(
      `${hookLineFor('pre-commit', ' --defer-to-commit-msg')}\n`,
    );
    expect(read(repo, '.husky/pre-push')).toBe(`${hookLineFor('pre-push', ' "$@"')}\n`);
  });

  it('merges with an existing prepare script and, husky not installed yet, sets the hooks up with its own', async () => {
    const repo = await makeRepo('no-husky-yet');
    cleanups.push(repo.remove);
    repo.write(
      'package.json',
      '{\n\t"name": "tabs",\n\t"scripts": {\n\t\t"prepare": "npm run build"\n\t}\n}\n',
    );
    repo.write('pnpm-lock.yaml', 'lockfileVersion: 9.0\n');
    repo.write('.aureus/policy.yaml', TINY_POLICY);
    repo.commit('base');
    const install = aureus(repo.dir, ['hooks', 'install']);
    expect(install.code).toBe(0);
    expect(read(repo, 'package.json')).toBe(
      '{\n\t"name": "tabs",\n\t"scripts": {\n\t\t"prepare": "npm run build && husky"\n\t},\n\t"devDependencies": {\n\t\t"husky": "^9.1.7"\n\t}\n}\n',
    );
    expect(install.stdout).toContain(
      'husky is not installed in . yet: AUREUS ran its own, so the hooks work now; `pnpm install` keeps them set up.',
    );
    expect(install.stdout).toContain(
      'npm install --save-dev <the .tgz that npm pack makes in an AUREUS clone>',
    );
    expect(repo.git('config', 'core.hooksPath')).toBe('.husky/_');
    // The very next commit is checked: no install in between.
    const bin = await makeTempDir('global-bin');
    cleanups.push(bin.remove);
    writeAureusShim(bin.path);
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    const blocked = commit(repo, ['-q', '-m', 'over'], {
      PATH: `${bin.path}:${process.env.PATH ?? ''}`,
    });
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('AUREUS: BLOCK');
  });

  it('works in a repository without package.json: a plain .git/hooks script, aureus from the PATH', async () => {
    const repo = await makeRepo('no-node');
    cleanups.push(repo.remove);
    repo.write('.aureus/policy.yaml', TINY_POLICY);
    repo.write('main.py', 'print("hello")\n');
    // Another tool's hook that ends in `exec`: AUREUS's line must go before it.
    repo.write('.git/hooks/pre-commit', '#!/bin/sh\necho other-tool ran\nexec true\n');
    repo.commit('base');
    const bin = await makeTempDir('global-bin');
    cleanups.push(bin.remove);
    writeAureusShim(bin.path);
    const path = { PATH: `${bin.path}:${process.env.PATH ?? ''}` };

    const install = aureus(repo.dir, ['hooks', 'install']);

    expect(install.code).toBe(0);
    expect(install.stdout).toContain('plain git hook scripts in .git/hooks/');
    expect(install.stdout).toContain('npm install --global <an AUREUS clone');
    expect(read(repo, '.git/hooks/pre-commit')).toBe(
      `#!/bin/sh\necho other-tool ran\n${PLAIN_PRE_COMMIT}\nexec true\n`,
    );
    expect(statSync(join(repo.dir, '.git/hooks/pre-commit')).mode & 0o111).toBe(0o111);
    expect(run(repo.dir, 'git', ['config', 'core.hooksPath']).code).toBe(1);

    stage(repo, 'tool.py', Array.from({ length: 12 }, (_, i) => `v${i} = ${i}\n`).join(''));
    settleIndex(repo);
    const index = indexDigest(repo);
    const blocked = commit(repo, ['-q', '-m', 'over'], path);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('other-tool ran');
    expect(blocked.output).toContain('AUREUS: BLOCK');
    expect(indexDigest(repo)).toBe(index);
    expect(commit(repo, ['-q', '-m', 'over'], { ...path, AUREUS_OVERRIDE: 'spike' }).code).toBe(0);
  });

  it('lets the commit through with one line on how to fix it when aureus is not on the PATH', async () => {
    const repo = await makeRepo('no-aureus');
    cleanups.push(repo.remove);
    repo.write('.aureus/policy.yaml', TINY_POLICY);
    repo.write('main.py', 'print("hello")\n');
    repo.commit('base');
    expect(aureus(repo.dir, ['hooks', 'install', 'pre-push']).code).toBe(0);
    // What git and its hooks need, and no aureus: a machine where it was never installed.
    const folderOf = (tool: string) =>
      dirname(run(repo.dir, 'sh', ['-c', `command -v ${tool}`]).stdout.trim());
    const bare = { PATH: [...new Set(['git', 'sh'].map(folderOf))].join(':') };
    expect(run(repo.dir, 'sh', ['-c', 'command -v aureus'], bare).code).not.toBe(0);
    stage(repo, 'tool.py', Array.from({ length: 12 }, (_, i) => `v${i} = ${i}\n`).join(''));
    const before = repo.git('rev-parse', 'HEAD');

    const result = commit(repo, ['-q', '-m', 'over'], bare);

    expect(result.code).toBe(0);
    expect(repo.git('rev-parse', 'HEAD~1')).toBe(before);
    expect(result.output).toBe(
      'AUREUS: the aureus command is not on the PATH, so the pre-commit hook checked nothing (the CI check still does). To resolve, install it: npm install --global <an AUREUS clone, or the .tgz that npm pack makes in it>.\n',
    );
  });

  it('lets a commit through husky say the same when the project has not installed aureus', async () => {
    const repo = await nodeRepo('husky-no-aureus');
    expect(aureus(repo.dir, ['hooks', 'install']).code).toBe(0);
    repo.commit('hooks');
    // A clone whose husky is installed but not AUREUS (a project that does not declare it yet).
    rmSync(join(repo.dir, 'node_modules', '.bin', 'aureus'));
    const folderOf = (tool: string) =>
      dirname(run(repo.dir, 'sh', ['-c', `command -v ${tool}`]).stdout.trim());
    const bare = { PATH: [...new Set(['git', 'sh', 'node'].map(folderOf))].join(':') };
    expect(run(repo.dir, 'sh', ['-c', 'command -v aureus'], bare).code).not.toBe(0);
    stage(repo, 'src/over.ts', OVER_BUDGET);
    const before = repo.git('rev-parse', 'HEAD');

    const result = commit(repo, ['-q', '-m', 'over'], bare);

    expect(result.code).toBe(0);
    expect(repo.git('rev-parse', 'HEAD~1')).toBe(before);
    expect(result.output).toContain(
      'AUREUS: the aureus command is not on the PATH, so the pre-commit hook checked nothing (the CI check still does). To resolve, install it:',
    );
    expect(result.output).not.toContain('not found');
  });

  it('writes to a custom core.hooksPath rather than replacing it', async () => {
    const repo = await makeRepo('hooks-path');
    cleanups.push(repo.remove);
    repo.write('.githooks/pre-commit', '#!/bin/sh\n./check-something\n');
    repo.commit('base');
    repo.git('config', 'core.hooksPath', '.githooks');
    expect(aureus(repo.dir, ['hooks', 'install']).code).toBe(0);
    expect(read(repo, '.githooks/pre-commit')).toBe(
      `#!/bin/sh\n./check-something\n${PLAIN_PRE_COMMIT}\n`,
    );
    expect(repo.git('config', 'core.hooksPath')).toBe('.githooks');
  });

  it('sets up a monorepo sub-package: husky at the git root, the package’s aureus first on the PATH', async () => {
    const repo = await nodeRepo('monorepo', 'packages/web');
    const web = join(repo.dir, 'packages', 'web');

    const install = aureus(web, ['hooks', 'install']);

    expect(install.code).toBe(0);
    const manifest = JSON.parse(read(repo, 'packages/web/package.json'));
    expect(manifest.scripts.prepare).toBe('cd ../.. && husky');
    expect(manifest.devDependencies.husky).toBe('^9.1.7');
    expect(read(repo, '.husky/pre-commit')).toBe(
      `${hookLineFor('pre-commit', '', 'packages/web/node_modules/.bin')}\n`,
    );
    expect(repo.git('config', 'core.hooksPath')).toBe('.husky/_');
    repo.commit('hooks');

    stage(repo, 'packages/web/src/over.ts', OVER_BUDGET);
    const blocked = commit(repo, ['-q', '-m', 'over']);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('AUREUS: BLOCK');
    repo.git('reset', '-q');
    stage(repo, 'packages/web/src/small.ts', SMALL_CHANGE);
    expect(commit(repo, ['-q', '-m', 'small']).code).toBe(0);

    // The prepare script npm runs after an install points git at the hooks again.
    repo.git('config', '--unset', 'core.hooksPath');
    const bin = join(web, 'node_modules', '.bin');
    const prepare = run(web, 'sh', ['-c', manifest.scripts.prepare], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(prepare.code).toBe(0);
    expect(repo.git('config', 'core.hooksPath')).toBe('.husky/_');
  });

  it('uninstalls only its own lines', async () => {
    const repo = await nodeRepo('uninstall');
    repo.write('.husky/pre-commit', 'lint-staged\n');
    expect(aureus(repo.dir, ['hooks', 'install', 'pre-push']).code).toBe(0);
    const result = aureus(repo.dir, ['hooks', 'uninstall']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('husky stays');
    expect(read(repo, '.husky/pre-commit')).toBe('lint-staged\n');
    expect(() => read(repo, '.husky/pre-push')).toThrow(/ENOENT/);
  });

  it('refuses an unknown hook name', async () => {
    const repo = await nodeRepo('unknown-hook');
    const result = aureus(repo.dir, ['hooks', 'install', 'post-commit']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('aureus hooks install does not know the hook "post-commit".');
  });
});
