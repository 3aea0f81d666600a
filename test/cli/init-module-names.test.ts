import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { parsePolicy } from '../../src/policy/parse-policy.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/**
 * Three layers under src/, the middle one holding two folders whose names differ only in a
 * character a module name cannot hold (`v4.mini` and `v4-mini`, as zod's sources have
 * `src/v4/mini` beside `src/v4-mini`).
 */
function writeLayers(repo: Repo): void {
  repo.write('package.json', `${JSON.stringify({ name: 'layers', type: 'module' })}\n`);
  repo.write('src/core/base.ts', 'export function base(): number {\n  return 1;\n}\n');
  repo.write(
    'src/v4.mini/mini.ts',
    "import { base } from '../core/base.js';\n\nexport function mini(): number {\n  return base() + 1;\n}\n",
  );
  repo.write(
    'src/v4-mini/flat.ts',
    "import { base } from '../core/base.js';\n\nexport function flat(): number {\n  return base() + 2;\n}\n",
  );
  repo.write(
    'src/app/app.ts',
    "import { mini } from '../v4.mini/mini.js';\nimport { flat } from '../v4-mini/flat.js';\n\nexport function app(): number {\n  return mini() + flat();\n}\n",
  );
}

describe('aureus init: module names of the layering it writes', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('init-module-names');
  });
  afterEach(() => repo.remove());

  it('gives two folders that clean to the same name two names, so the policy loads', async () => {
    writeLayers(repo);
    repo.commit('start');

    const run = await runCliInProcess(['init', '--yes', '--without-hooks'], repo.dir);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = readFileSync(join(repo.dir, '.aureus/policy.yaml'), 'utf8');
    const parsed = parsePolicy(text, '.aureus/policy.yaml');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const modules = parsed.policy.modules;
    expect(modules['src-v4-mini']?.paths).toEqual(['src/v4-mini/**']);
    expect(modules['src-v4-mini-2']?.paths).toEqual(['src/v4.mini/**']);
    expect(modules.core?.may_not_import).toEqual(['src-v4-mini', 'src-v4-mini-2', 'app']);
    expect(modules.app?.may_not_import).toBeUndefined();
  });
});
