import { describe, expect, it } from '@jest/globals';
import { fingerprintOf } from '../../../src/critic/finding-of.js';
import type { RuleContext } from '../../../src/critic/rule.js';
import { unparsableFile } from '../../../src/critic/rules/unparsable-file.js';
import { runCritic } from '../../../src/critic/run-critic.js';
import type { SyntaxDiagnostic } from '../../../src/model/facts.js';
import { contextOf } from '../critic-support.js';

/** `def run(:`, where tree-sitter misses a `)` before the `:` (line 1, column 9). */
const BROKEN_PYTHON = 'def run(:\n    return 1\n';

const levels = (context: RuleContext) =>
  unparsableFile
    .check(context)
    .map(({ location, severity }) => [location?.path, severity] as const);

/** The context with the diagnostics of one file replaced. */
function withDiagnostics(
  context: RuleContext,
  path: string,
  diagnostics: SyntaxDiagnostic[],
): RuleContext {
  const facts = new Map(context.project.facts);
  const found = facts.get(path);
  if (found === undefined) throw new Error(`no facts for ${path}`);
  facts.set(path, { ...found, diagnostics });
  return { ...context, project: { ...context.project, facts } };
}

describe('unparsable_file', () => {
  it('reports a file that does not parse at its first syntax error, naming the language', async () => {
    const context = await contextOf({ 'app/run.py': BROKEN_PYTHON, 'app/ok.py': 'x = 1\n' });
    expect(unparsableFile.check(context)).toEqual([
      {
        ruleId: 'unparsable_file',
        severity: 'error',
        message:
          'app/run.py does not parse as Python (line 1, column 9: missing ")"), so it is measured only as far as the parser could read it: fix the syntax error, or list the file under paths.ignore if it is meant to be invalid',
        location: { path: 'app/run.py', startLine: 1, startColumn: 9, endLine: 1 },
        symbol: 'file',
        fingerprint: fingerprintOf('unparsable_file', 'app/run.py', 'file'),
        measured: null,
        limit: null,
        related: [],
      },
    ]);
  });

  it('reports nothing for files that parse', async () => {
    const context = await contextOf({
      'src/a.ts': 'export const a = 1;\n',
      'app/b.py': 'def b():\n    return 1\n',
      'cmd/c.go': 'package main\n\nfunc main() {}\n',
    });
    expect(unparsableFile.check(context)).toEqual([]);
  });

  it('keeps one fingerprint per file, wherever its errors are and whatever they say', async () => {
    const one = await contextOf({ 'app/run.py': BROKEN_PYTHON });
    const other = await contextOf({ 'app/run.py': `x = 1\n\nclass A(:\n  pass\n${BROKEN_PYTHON}` });
    const [before] = unparsableFile.check(one);
    const [after] = unparsableFile.check(other);
    expect(after?.location?.startLine).not.toBe(before?.location?.startLine);
    expect(after?.fingerprint).toBe(before?.fingerprint);
  });

  it('reports generated code at the rule severity and tests at in_tests, warn by default', async () => {
    const sources = {
      'src/api.generated.py': BROKEN_PYTHON,
      'tests/test_run.py': BROKEN_PYTHON,
    };
    expect(levels(await contextOf(sources))).toEqual([
      ['src/api.generated.py', 'error'],
      ['tests/test_run.py', 'warn'],
    ]);
    const strict = 'forbidden_patterns:\n  unparsable_file:\n    in_tests: error\n';
    expect(levels(await contextOf(sources, strict))).toEqual([
      ['src/api.generated.py', 'error'],
      ['tests/test_run.py', 'error'],
    ]);
    const quiet = 'forbidden_patterns:\n  unparsable_file:\n    in_tests: off\n';
    expect(levels(await contextOf(sources, quiet))).toEqual([['src/api.generated.py', 'error']]);
  });

  it('never reports tests above the rule severity', async () => {
    const policy =
      'forbidden_patterns:\n  unparsable_file:\n    severity: warn\n    in_tests: error\n';
    const context = await contextOf({ 'tests/test_run.py': BROKEN_PYTHON }, policy);
    expect(
      runCritic(context)
        .filter((finding) => finding.ruleId === 'unparsable_file')
        .map((finding) => finding.severity),
    ).toEqual(['warn']);
  });

  it("shows the parser's message on one line, clipped", async () => {
    const context = withDiagnostics(
      await contextOf({ 'app/run.py': BROKEN_PYTHON }),
      'app/run.py',
      [{ line: 3, column: 2, message: `unexpected\n\ttoken ${'x'.repeat(400)}` }],
    );
    const [finding] = unparsableFile.check(context);
    const said = /column 2: (.*)\), so/.exec(finding?.message ?? '')?.[1] ?? '';
    expect(said.startsWith('unexpected token xxx')).toBe(true);
    expect(Array.from(said)).toHaveLength(160);
    expect(said.endsWith('…')).toBe(true);
  });
});
