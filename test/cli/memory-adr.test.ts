import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const POLICY = `version: 1
forbidden_patterns:
  premature_abstraction:
    severity: error
`;

/** An override reason that tries HTML, markup, a link, a mention and a path. */
const HOSTILE =
  'ok</script><script>alert(1)</script> **bold** [x](https://evil.test) @octocat ../../etc/passwd';

const EXISTING = `# 0003. X

Date: 2026-01-01

Status: Accepted
`;

let restoreGit: () => Promise<void>;
beforeAll(async () => {
  restoreGit = await isolateGit();
});
afterAll(() => restoreGit());

/**
 * Four checked commits, each one kind of architectural change: a new dependency, a new core
 * module (a folder named like a mention), an abstraction let through by an override with a
 * hostile reason, and a policy change; `.aureus/decisions/` already holds 0003-x.md.
 */
describe('aureus memory adr', () => {
  let repo: Repo & { remove(): Promise<void> };
  const commits: string[] = [];
  const adr = (...args: string[]) => runCliInProcess(['memory', 'adr', ...args], repo.dir);
  const checkHead = async (override?: string) => {
    const run = await runCliInProcess(
      ['check', '--commit', 'HEAD', ...(override === undefined ? [] : ['--override', override])],
      repo.dir,
    );
    expect(run.code).toBeLessThan(2);
    return run;
  };

  beforeAll(async () => {
    repo = await makeRepo('memory-adr');
    repo.write('.gitignore', '.aureus/local/\n');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('.aureus/decisions/0003-x.md', EXISTING);
    repo.write('package.json', '{ "name": "app", "version": "1.0.0", "dependencies": {} }\n');
    repo.write('src/core/a.ts', 'export const a = 1;\n');
    repo.commit('base');
    repo.write(
      'package.json',
      '{ "name": "app", "version": "1.0.0", "dependencies": { "left-pad": "1.3.0" } }\n',
    );
    commits.push(repo.commit('depend on left-pad'));
    await checkHead();
    // The same change pushed again with a fix-up, checked from the same base: one decision.
    repo.write('src/core/a.ts', 'export const a = 2;\n');
    repo.commit('fix-up');
    expect(
      (await runCliInProcess(['check', '--base', `${commits[0]}~1`, '--head', 'HEAD'], repo.dir))
        .code,
    ).toBe(0);
    repo.write('src/@octocat/invoice.ts', 'export const total = 2;\n');
    commits.push(repo.commit('a module named like a mention'));
    await checkHead();
    repo.write(
      'src/core/shape.ts',
      'export interface Shape {\n  area(): number;\n}\nexport class Square implements Shape {\n  area(): number {\n    return 1;\n  }\n}\n',
    );
    commits.push(repo.commit('an abstraction'));
    expect((await checkHead()).code).toBe(1);
    expect((await checkHead(HOSTILE)).code).toBe(0);
    repo.write('.aureus/policy.yaml', POLICY.replace('severity: error', 'severity: warn'));
    commits.push(repo.commit('loosen the policy'));
    await checkHead();
  });
  afterAll(() => repo.remove());

  it('proposes one decision per change, numbered after 0003, in the template, with the numbers', async () => {
    const run = await adr('--format', 'json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { proposals, written } = JSON.parse(run.stdout);
    expect(written).toEqual([]);
    expect(proposals.map((proposal: { fileName: string }) => proposal.fileName)).toEqual([
      '0004-add-dependency-left-pad.md',
      '0005-add-core-module-src-octocat.md',
      '0006-keep-the-abstraction-an-override-let-through.md',
      '0007-change-the-policy.md',
    ]);
    const [dependency] = proposals;
    const text: string = dependency.text;
    expect(text.split('\n').slice(0, 7)).toEqual([
      '# 0004. Add dependency left-pad',
      '',
      expect.stringMatching(/^Date: \d{4}-\d\d-\d\d$/),
      '',
      'Status: Proposed',
      '',
      '## Context',
    ]);
    for (const section of ['## Decision', '## Consequences', '## Evidence'])
      expect(text).toContain(`\n${section}\n`);
    expect(text).toContain(`Commit \`${commits[0]}\` made an architectural change:`);
    expect(text).toContain('- new dependency left-pad');
    expect(text).toMatch(/It cost [\d.]+ points against a change budget of \d+ \(/);
    expect(text).toMatch(/- Budget use after: [\d.]+ of \d+ points of the change budget/);
    expect(dependency.hashes).toHaveLength(2);
    expect(text).toContain(`- Ledger entry: \`${dependency.hashes[0]}\``);
    expect(text).toContain(`- Same change, checked again: \`${dependency.hashes[1]}\``);
    expect(text).toContain(`- Commit: \`${commits[0]}\``);
    expect(proposals[3].text).toContain('- a policy change:');
  });

  it('keeps hostile text inert: escaped, no mention, no HTML, never a path', async () => {
    const run = await adr();
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('</script>');
    expect(run.stdout).not.toContain('<script>');
    expect(run.stdout).not.toMatch(/(^|[^\w])@octocat/);
    expect(run.stdout).not.toContain('**bold**');
    expect(run.stdout).not.toContain('[x](');
    expect(run.stdout).toContain('&lt;/script&gt;');
    expect(run.stdout).toContain('# 0005. Add core module src/@&#8203;octocat');
    expect(run.stdout).toContain(
      'It was let through by an override from Test Author &lt;author@example.test&gt;:',
    );
  });

  it('says how to renumber when a committed decision leaves no number for the next', async () => {
    const last = join(repo.dir, '.aureus/decisions/999999999-x.md');
    await writeFile(last, EXISTING);
    try {
      const run = await adr();
      expect(run.code).toBe(2);
      expect(run.stderr).not.toContain('internal error');
      expect(run.stderr).toContain('already has a decision numbered 999999999');
      expect(run.stderr).toContain('renumber the decisions');
    } finally {
      await rm(last);
    }
  });

  it('--write creates the files, never again: a second run proposes none', async () => {
    const run = await adr('--write');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Wrote: 4 decision\(s\)\./);
    const folder = join(repo.dir, '.aureus/decisions');
    expect((await readdir(folder)).sort()).toEqual([
      '0003-x.md',
      '0004-add-dependency-left-pad.md',
      '0005-add-core-module-src-octocat.md',
      '0006-keep-the-abstraction-an-override-let-through.md',
      '0007-change-the-policy.md',
    ]);
    expect(await readFile(join(folder, '0003-x.md'), 'utf8')).toBe(EXISTING);
    const again = await adr('--write');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(
      'No architectural change in the ledgers lacks a decision in .aureus/decisions.\n',
    );
    expect((await readdir(folder)).length).toBe(5);
  });

  it('reads and writes no decision through a link the checkout commits', async () => {
    const temp = await makeTempDir('memory-adr-outside');
    try {
      const linked = await makeRepo('memory-adr-linked');
      try {
        linked.write('.aureus/policy.yaml', POLICY);
        await symlink(temp.path, join(linked.dir, '.aureus/decisions'));
        const run = await runCliInProcess(['memory', 'adr', '--write'], linked.dir);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain('is a symbolic link; AUREUS reads and writes its decisions');
        expect(await readdir(temp.path)).toEqual([]);
      } finally {
        await linked.remove();
      }
    } finally {
      await temp.remove();
    }
  });
});
