import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

/** 1,000 code lines, and a class big enough to be a god class under the default policy. */
const BIG = [
  'export class Big {',
  ...Array.from({ length: 998 }, (_, i) => `  m${i} = ${i};`),
  '}',
  '',
].join('\n');

const COPIES = ['src/copy-1.ts', 'src/copy-2.ts', 'src/copy-3.ts'];

interface CheckedCopy {
  readonly code: number;
  readonly verdict: string;
  readonly loc: number;
  /** git's own status letters for the commit, as AUREUS reads them. */
  readonly letters: readonly string[];
  readonly copyLoc: readonly number[];
  readonly copyFindings: readonly string[];
}

/**
 * Under the default policy: git's copy detection (`-C`) reports a copy of a file the same change
 * touches or renames as `C`, with the original as its base. A copy is new code all the same.
 */
describe('a copy of a file is new code, whatever happens to the original', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('copies');
    repo.write('src/big.ts', BIG);
    base = repo.commit('base');
  });
  afterEach(() => repo.remove());

  async function check(): Promise<CheckedCopy> {
    for (const copy of COPIES) repo.write(copy, BIG);
    repo.commit('copies');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    return {
      code: run.code,
      verdict: report.verdict,
      loc: report.cost.loc,
      letters: repo
        .git('diff', '--name-status', '-M', '-C', base, 'HEAD')
        .split('\n')
        .map((line) => line.slice(0, 1)),
      copyLoc: report.costItems
        .filter(
          (item: { category: string; path: string }) =>
            item.category === 'loc' && COPIES.includes(item.path),
        )
        .map((item: { points: number }) => item.points),
      copyFindings: report.findings
        .filter((finding: { location: { path: string } | null }) =>
          COPIES.includes(finding.location?.path ?? ''),
        )
        .map(
          (finding: { ruleId: string; status: string }) => `${finding.ruleId} ${finding.status}`,
        ),
    };
  }

  it('prices three copies beside a touched original as 3,000 new lines, and blocks', async () => {
    repo.write('src/big.ts', `${BIG}export const touched = 1;\n`);
    const checked = await check();
    expect(checked.letters).toEqual(['M', 'C', 'C', 'C']);
    expect(checked.copyLoc).toEqual([1000, 1000, 1000]);
    expect(checked.loc).toBe(3001);
    expect(checked.copyFindings).toEqual(Array(3).fill('god_class new'));
    expect(checked.verdict).toBe('block');
    expect(checked.code).toBe(1);
  });

  it('prices three copies beside a renamed original as 3,000 new lines, the move free', async () => {
    repo.git('mv', 'src/big.ts', 'src/moved.ts');
    const checked = await check();
    expect(checked.letters).toEqual(['C', 'C', 'C', 'R']);
    expect(checked.copyLoc).toEqual([1000, 1000, 1000]);
    expect(checked.loc).toBe(3000);
    expect(checked.copyFindings).toEqual(Array(3).fill('god_class new'));
    expect(checked.verdict).toBe('block');
    expect(checked.code).toBe(1);
  });
});
