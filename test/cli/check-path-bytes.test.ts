import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';

const POLICY =
  'version: 1\nforbidden_patterns:\n  god_class:\n    severity: error\n    max_loc: 30\n';

const GOD_CLASS = `export class Engine {\n${Array.from({ length: 40 }, (_, i) => `  m${i} = ${i};`).join('\n')}\n}\n`;

/** `src/x<byte>.ts`: a name that is not UTF-8, written byte for byte. */
function writeNamed(repo: Repo, byte: number, content: string): void {
  const name = Buffer.concat([
    Buffer.from(`${repo.dir}/src/x`),
    Buffer.from([byte]),
    Buffer.from('.ts'),
  ]);
  writeFileSync(name, content);
}

/**
 * Names that differ only in bytes that are not UTF-8 are different files: decoding both to
 * U+FFFD would make a new finding in one read as the baseline finding of the other.
 */
describe('a path is its exact bytes', () => {
  let repo: Repo & { remove(): Promise<void> };
  let base: string;
  useIsolatedGit();
  beforeEach(async () => {
    repo = await makeRepo('path-bytes');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/util.ts', 'export const one = 1;\n');
    writeNamed(repo, 0xff, GOD_CLASS);
    base = repo.commit('a god class in x\\xff.ts');
  });
  afterEach(() => repo.remove());

  it('tells a new finding in x\\xfe.ts from the baseline one in x\\xff.ts, and blocks', async () => {
    writeNamed(repo, 0xfe, GOD_CLASS);
    repo.commit('the same class in x\\xfe.ts');
    const run = await runCliInProcess(
      ['check', '--base', base, '--head', 'HEAD', '--format', 'json'],
      repo.dir,
    );
    const report = JSON.parse(run.stdout);
    const godClasses = report.findings
      .filter((finding: { ruleId: string }) => finding.ruleId === 'god_class')
      .map((finding: { location: { path: string }; status: string }) => [
        finding.location.path,
        finding.status,
      ]);
    expect(godClasses).toEqual([
      ['src/x\uDCFE.ts', 'new'],
      ['src/x\uDCFF.ts', 'baseline'],
    ]);
    expect(report.verdict).toBe('block');
    expect(run.code).toBe(1);
    const text = await runCliInProcess(['check', '--base', base, '--head', 'HEAD'], repo.dir);
    expect(text.stdout).toContain('✖ src/x\\xFE.ts:1  god_class');
    expect(text.stdout).toContain('· src/x\\xFF.ts:1  god_class');
  });
});
