import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { checkAsJson } from '../support/run-cli-in-process.js';

interface Finding {
  readonly ruleId: string;
  readonly blocking: boolean;
  readonly message: string;
  readonly location: { readonly path: string };
}

const TOO_DEEP = /nested more than 1,000 levels deep/;

/**
 * A file nested deeper than a parser's recursion reaches used to end the check: 2,000 nested
 * arrays overflowed the walk's stack (an internal error), 20,000 overflowed oxc's native stack
 * (a segmentation fault, which in the App is one pull request ending the process). Such a file
 * is the unparsable_file finding that names the bound, and the check goes on.
 */
describe('aureus check on a file nested too deeply to parse', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('deep-nesting');
    repo.write('src/app.js', 'exports.app = 1;\n');
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  const nested = (depth: number) => `const x = ${'['.repeat(depth)}${']'.repeat(depth)};\n`;

  it.each([
    ['arrays 2,000 deep', 'src/deep.js', nested(2000)],
    ['arrays 20,000 deep', 'src/deep.js', nested(20_000)],
    [
      'a 30,000-deep conditional chain',
      'src/chain.ts',
      `export const x = ${'a ? b : '.repeat(30_000)}c;\n`,
    ],
    ['20,000 nested ifs, one a line', 'src/ifs.js', `${'if (a)\n'.repeat(20_000)}b();\n`],
    [
      'arrays 20,000 deep behind a quote in JSX text',
      'src/view.jsx',
      `export const v = <div><p>'</p>{${"[ ']' ".repeat(20_000)}}</div>;\n`,
    ],
  ])('reports %s as unparsable, naming the bound', async (_name, path, text) => {
    repo.write(path, text);
    repo.commit('a deeply nested file');
    const { code, report } = await checkAsJson(repo.dir, base);
    const found = report.findings.filter(
      (finding: Finding) => finding.ruleId === 'unparsable_file',
    );
    expect(found).toEqual([
      expect.objectContaining({
        blocking: true,
        message: expect.stringMatching(TOO_DEEP),
        location: expect.objectContaining({ path }),
      }),
    ]);
    expect(report.verdict).toBe('block');
    expect(code).toBe(1);
  });

  it('reads code nested as deeply as real code nests', async () => {
    repo.write(
      'src/data.js',
      `${nested(300)}exports.f = (a) => (a ? [{ b: [(c) => c] }] : null);\n`,
    );
    repo.commit('nested data');
    const { report } = await checkAsJson(repo.dir, base);
    expect(report.findings).toEqual([]);
  });
});
