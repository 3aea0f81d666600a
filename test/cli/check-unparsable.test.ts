import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/**
 * A class of 12 three-line methods (over a max_loc of 30) with one syntax error: `return 5 +;`
 * on line 18, whose `;` (column 15) is where no expression follows the `+`.
 */
const BROKEN_GOD_CLASS = [
  'export class Engine {',
  ...Array.from({ length: 12 }, (_, i) =>
    [`  m${i}(): number {`, i === 5 ? `    return ${i} +;` : `    return ${i};`, '  }'].join('\n'),
  ),
  '}',
  '',
].join('\n');

const ERROR_AT = { path: 'src/engine.ts', startLine: 18, startColumn: 15, endLine: 18 };

function policy(severity = 'error'): string {
  return [
    'version: 1',
    'forbidden_patterns:',
    '  god_class:',
    '    max_loc: 30',
    '  unparsable_file:',
    `    severity: ${severity}`,
    '',
  ].join('\n');
}

interface Finding {
  readonly ruleId: string;
  readonly severity: string;
  readonly status: string;
  readonly blocking: boolean;
  readonly message: string;
  readonly location: unknown;
}

describe('aureus check on a file that does not parse', () => {
  let repo: Repo & { remove(): Promise<void> };
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('unparsable');
    repo.write('src/util.ts', 'export const one = 1;\n');
  });
  afterEach(() => repo.remove());

  async function check(base: string, format = 'json') {
    return runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', format],
      repo.dir,
    );
  }

  async function checkJson(base: string) {
    const run = await check(base);
    const report = JSON.parse(run.stdout);
    return {
      code: run.code,
      verdict: report.verdict as string,
      complete: report.change.complete as boolean,
      findings: report.findings as Finding[],
      costItems: report.costItems as Array<{ path: string | null; detail: string }>,
    };
  }

  const unparsable = (findings: readonly Finding[]) =>
    findings.filter((finding) => finding.ruleId === 'unparsable_file');

  it('blocks a new god class with a syntax error, at the error, and still sees the class', async () => {
    repo.write('.aureus/policy.yaml', policy());
    const base = repo.commit('base');
    repo.write('src/engine.ts', BROKEN_GOD_CLASS);
    repo.commit('add a broken Engine');
    const result = await checkJson(base);
    expect([result.verdict, result.code]).toEqual(['block', 1]);
    expect(unparsable(result.findings)).toEqual([
      expect.objectContaining({
        severity: 'error',
        status: 'new',
        blocking: true,
        location: ERROR_AT,
      }),
    ]);
    const [finding] = unparsable(result.findings);
    expect(finding?.message).toBe(
      'src/engine.ts does not parse as TypeScript (line 18, column 15: Expression expected.), so it is measured only as far as the parser could read it: fix the syntax error, or list the file under paths.ignore if it is meant to be invalid',
    );
    expect(result.findings).toContainEqual(
      expect.objectContaining({ ruleId: 'god_class', status: 'new', blocking: true }),
    );
    expect(result.costItems.find((item) => item.path === 'src/engine.ts')?.detail).toBe(
      'adds 38 code lines; does not parse (line 18, column 15): its abstractions and sensitive surfaces count only as far as the parser read',
    );
  });

  it('passes a change beside a file that was already broken at the base: a baseline finding', async () => {
    repo.write('.aureus/policy.yaml', policy());
    repo.write('src/engine.ts', BROKEN_GOD_CLASS);
    const base = repo.commit('base, already broken');
    repo.write('src/util.ts', 'export const one = 1;\nexport const two = 2;\n');
    repo.commit('touch util');
    const result = await checkJson(base);
    expect(unparsable(result.findings)).toEqual([
      expect.objectContaining({ status: 'baseline', blocking: false, location: ERROR_AT }),
    ]);
    expect([result.verdict, result.code]).toEqual(['pass', 0]);
  });

  it('warns, without blocking, at severity warn', async () => {
    repo.write('.aureus/policy.yaml', policy('warn'));
    repo.write('src/engine.ts', 'export class Engine {}\n');
    const base = repo.commit('base');
    repo.write('src/engine.ts', 'export class Engine {\n  run( {}\n}\n');
    repo.commit('break it');
    const result = await checkJson(base);
    expect(unparsable(result.findings)).toEqual([
      expect.objectContaining({ severity: 'warn', status: 'new', blocking: false }),
    ]);
    expect([result.verdict, result.code]).toEqual(['warn', 0]);
  });

  it('reports nothing at severity off', async () => {
    repo.write('.aureus/policy.yaml', policy('off'));
    const base = repo.commit('base');
    repo.write('src/engine.ts', 'export class Engine {\n  run( {}\n}\n');
    repo.commit('break it');
    const result = await checkJson(base);
    expect(unparsable(result.findings)).toEqual([]);
    expect([result.verdict, result.code]).toEqual(['pass', 0]);
  });

  it('only warns about a test file that does not parse: tests may hold invalid code on purpose', async () => {
    repo.write('.aureus/policy.yaml', policy());
    const base = repo.commit('base');
    repo.write('test/fixtures/invalid.ts', 'export const = ;\n');
    repo.commit('add an invalid fixture');
    const result = await checkJson(base);
    expect(unparsable(result.findings)).toEqual([
      expect.objectContaining({ severity: 'warn', status: 'new', blocking: false }),
    ]);
    expect([result.verdict, result.code]).toEqual(['warn', 0]);
  });

  it('reports Python, Go and Java files that do not parse', async () => {
    repo.write('.aureus/policy.yaml', policy());
    const base = repo.commit('base');
    repo.write('app/main.py', 'def run(:\n    return 1\n');
    repo.write('cmd/main.go', 'package main\n\nfunc main() {\n\tx := \n}\n');
    repo.write('src/Main.java', 'class Main {\n  void run() { int x = ; }\n}\n');
    repo.commit('three broken files');
    const result = await checkJson(base);
    expect(
      unparsable(result.findings).map((finding) => [
        (finding.location as { path: string }).path,
        finding.message.split(' (')[0],
      ]),
    ).toEqual([
      ['app/main.py', 'app/main.py does not parse as Python'],
      ['cmd/main.go', 'cmd/main.go does not parse as Go'],
      ['src/Main.java', 'src/Main.java does not parse as Java'],
    ]);
    expect(result.code).toBe(1);
  });

  it('names the file, line and column in the text, Markdown and SARIF reports', async () => {
    repo.write('.aureus/policy.yaml', policy());
    const base = repo.commit('base');
    repo.write('src/engine.ts', BROKEN_GOD_CLASS);
    repo.commit('add a broken Engine');
    const text = await check(base, 'text');
    expect(text.stdout).toContain('src/engine.ts:18:15');
    expect(text.stdout).toContain('unparsable_file');
    const markdown = await check(base, 'markdown');
    expect(markdown.stdout).toContain('src/engine.ts:18:15');
    const sarif = JSON.parse((await check(base, 'sarif')).stdout);
    const results = sarif.runs[0].results.filter(
      (result: { ruleId: string }) => result.ruleId === 'unparsable_file',
    );
    expect(results).toHaveLength(1);
    expect(results[0].level).toBe('error');
    expect(results[0].locations[0].physicalLocation.region).toEqual({
      startLine: 18,
      startColumn: 15,
      endLine: 18,
    });
    expect(
      sarif.runs[0].tool.driver.rules.find((rule: { id: string }) => rule.id === 'unparsable_file'),
    ).toBeDefined();
  });
});
