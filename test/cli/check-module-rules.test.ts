import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const POLICY = [
  'version: 1',
  'modules:',
  '  ui: { paths: ["src/ui/**"] }',
  '  db: { paths: ["src/db/**"], may_not_import: [ui], type_only_allowed: true }',
  '',
].join('\n');

/** A runtime import: one whose binding the code uses, so TypeScript's emit keeps it. */
const IMPORTS_UI = "import { label } from '../ui/button.js';\nexport const shown = label;\n";

/** src/db/query.ts with the given lines above its one export. */
function query(...lines: string[]): string {
  return `${lines.join('')}export const query = 1;\n`;
}

describe('aureus check with module rules', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('module-rules');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/ui/button.ts', 'export type Label = string;\nexport const label = 1;\n');
    repo.write('src/db/query.ts', query());
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const check = async (from: string) => {
    const run = await runCliInProcess(
      ['check', '--base', from, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    return { code: run.code, report: JSON.parse(run.stdout) };
  };
  const moduleFindings = (report: { findings: { ruleId: string }[] }) =>
    report.findings.filter((finding) => finding.ruleId === 'forbidden_dependency');

  it('blocks a new import the rules forbid, at its file and line', async () => {
    repo.write('src/db/query.ts', query('// reads the label\n', IMPORTS_UI));
    repo.commit('db imports ui');
    const { code, report } = await check(base);
    expect(moduleFindings(report)).toEqual([
      expect.objectContaining({
        status: 'new',
        blocking: true,
        symbol: 'db → ui',
        location: { path: 'src/db/query.ts', startLine: 2, endLine: 2 },
        message: expect.stringContaining('module db may not import ui'),
      }),
    ]);
    expect(code).toBe(1);
    const text = await runCliInProcess(['check', '--base', base, '--head', 'HEAD'], repo.dir);
    expect(text.stdout).toContain('src/db/query.ts:2');
  });

  it('blocks an import made through module.require or a loader createRequire made', async () => {
    for (const [branch, loads] of [
      ['module-require', "export const shown = module.require('../ui/button.js').label;\n"],
      [
        'create-require',
        "import { createRequire } from 'node:module';\nconst load = createRequire(import.meta.url);\nexport const shown = load('../ui/button.js').label;\n",
      ],
    ] as const) {
      repo.git('checkout', '--quiet', '-b', branch, base);
      repo.write('src/db/query.ts', query(loads));
      repo.commit(branch);
      const { code, report } = await check(base);
      expect(moduleFindings(report)).toEqual([
        expect.objectContaining({ status: 'new', blocking: true, symbol: 'db → ui' }),
      ]);
      expect(code).toBe(1);
    }
  });

  it('passes a change beside an import that broke the rules already: a baseline finding', async () => {
    repo.write('src/db/query.ts', query(IMPORTS_UI));
    const broken = repo.commit('db imports ui');
    repo.write('src/db/query.ts', query('// the import moved down a line\n', IMPORTS_UI));
    repo.commit('touch query');
    const { code, report } = await check(broken);
    expect(moduleFindings(report)).toEqual([
      expect.objectContaining({ status: 'baseline', blocking: false }),
    ]);
    expect(code).toBe(0);
  });

  it('allows a type-only import where type_only_allowed says so, and blocks the runtime one', async () => {
    repo.write(
      'src/db/query.ts',
      query("import type { Label } from '../ui/button.js';\nexport type Shown = Label;\n"),
    );
    repo.commit('a type from ui');
    expect((await check(base)).code).toBe(0);
    repo.write('src/db/query.ts', query(IMPORTS_UI));
    repo.commit('a value from ui');
    expect(moduleFindings((await check(base)).report)).toEqual([
      expect.objectContaining({ status: 'new', blocking: true }),
    ]);
  });

  it('judges a change that drops a rule by the base rules, and flags the loosening', async () => {
    repo.write('.aureus/policy.yaml', POLICY.replace(', may_not_import: [ui]', ''));
    repo.write('src/db/query.ts', query(IMPORTS_UI));
    repo.commit('drop the rule and break it');
    const { code, report } = await check(base);
    expect(moduleFindings(report)).toEqual([
      expect.objectContaining({ status: 'new', blocking: true, symbol: 'db → ui' }),
    ]);
    expect(report.policy.loosens).toEqual(['modules.db.may_not_import: ["ui"] → unset']);
    expect(code).toBe(1);
  });
});
