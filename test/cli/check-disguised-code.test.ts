import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

interface CostItem {
  readonly category: string;
  readonly path: string | null;
  readonly points: number;
  readonly detail: string;
}

/**
 * Code written so that it looks like something AUREUS does not judge: a language's other file
 * extension, a global reached by a computed name. Each must be judged as the code it is.
 */
describe('code disguised as something AUREUS does not judge', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('disguised-code');
    repo.write('src/app.ts', 'export const app = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  async function check() {
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    return { code: run.code, report: JSON.parse(run.stdout) };
  }

  const security = (items: readonly CostItem[]) =>
    items.filter((item) => item.category === 'security').map((item) => item.detail);

  it('reads a .pyw script as the Python it is: its subprocess and eval are priced and critiqued', async () => {
    repo.write(
      'src/tool.pyw',
      [
        'import subprocess',
        '',
        'def run(command):',
        '    subprocess.run(command)',
        '    return eval(command)',
        '',
      ].join('\n'),
    );
    repo.commit('a Python script Windows starts without a console');
    const { code, report } = await check();
    expect(security(report.costItems)).toEqual([
      expect.stringMatching(/new process_spawn surface/),
      expect.stringMatching(/new eval surface/),
    ]);
    expect(report.reasons).toContainEqual(
      expect.stringMatching(
        /new reflection \(warning\): src\/tool\.pyw uses code evaluated from a string/,
      ),
    );
    expect(report.verdict).toBe('warn');
    expect(code).toBe(0);
  });
});
