import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendToJournal } from '../../src/memory/journal.js';
import type { JsonObject } from '../../src/model/json.js';
import { OVER_BUDGET, SMALL_CHANGE, TINY_POLICY } from '../hooks/hook-fixture.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

let restoreGit: () => Promise<void>;
beforeAll(async () => {
  restoreGit = await isolateGit();
  delete process.env.AUREUS_OVERRIDE;
});
afterAll(() => restoreGit());

/**
 * A repository whose local ledger real hook runs wrote: a passing commit, an overridden one
 * (each linked to its commit by post-commit), then a blocked cycle left uncommitted.
 */
describe('aureus ledger query over a ledger the hooks wrote', () => {
  let repo: Repo & { remove(): Promise<void> };
  let overCommit: string;
  const query = (...args: string[]) => runCliInProcess(['ledger', 'query', ...args], repo.dir);

  beforeAll(async () => {
    repo = await makeRepo('ledger-query-hooks');
    repo.write('.gitignore', '.aureus/local/\n');
    repo.write('.aureus/policy.yaml', TINY_POLICY);
    repo.write('src/base.ts', 'export const base = 0;\n');
    repo.commit('base');
    const hookCommit = async (message: string, override?: string) => {
      if (override !== undefined) process.env.AUREUS_OVERRIDE = override;
      try {
        expect((await runCliInProcess(['hook', 'pre-commit'], repo.dir)).code).toBe(0);
      } finally {
        delete process.env.AUREUS_OVERRIDE;
      }
      repo.git('commit', '--quiet', '-m', message);
      expect((await runCliInProcess(['hook', 'post-commit'], repo.dir)).code).toBe(0);
    };
    repo.write('src/small.ts', SMALL_CHANGE);
    repo.git('add', 'src/small.ts');
    await hookCommit('small');
    repo.write('src/over.ts', OVER_BUDGET);
    repo.git('add', 'src/over.ts');
    await hookCommit('over', 'release today');
    overCommit = repo.git('rev-parse', 'HEAD');
    repo.write('src/a.ts', "import { b } from './b';\nexport const a = () => b();\n");
    repo.write('src/b.ts', "import { a } from './a';\nexport const b = () => a();\n");
    repo.git('add', 'src');
    expect((await runCliInProcess(['hook', 'pre-commit'], repo.dir)).code).toBe(1);
  });
  afterAll(() => repo.remove());

  it('without filters shows every entry as ledger show does, then the count', async () => {
    const run = await query();
    const show = await runCliInProcess(['ledger', 'show'], repo.dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${show.stdout}\n5 of 5 entries match.\n`);
  });

  it('--overridden keeps the overridden check, with the commit it became and who let it through', async () => {
    const run = await query('--overridden');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# +WHEN +EVENT +COMMIT +VERDICT +COST +OVERRIDE$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^3 .*check \\(staged\\) +${overCommit.slice(0, 12)} {2}block .*yes \\(Test Author <author@example\\.test>\\)$`,
      ),
    );
    expect(lines.slice(2)).toEqual([
      '',
      'Overrides:',
      `  #3  ${overCommit.slice(0, 12)}  overridden by Test Author <author@example.test>: release today`,
      '',
      '1 of 5 entries match.',
    ]);
  });

  it('--kind commit lists the two links; --actor matches the overrider in any case', async () => {
    const commits = await query('--kind', 'commit');
    expect(commits.stdout).toMatch(/\n2 of 5 entries match\.\n$/);
    expect(commits.stdout.split('\n').filter((line) => /^\d+ .* commit /.test(line))).toHaveLength(
      2,
    );
    const actor = await query('--actor', 'TEST author');
    expect(actor.stdout).toMatch(/^3 .*release today|\n1 of 5 entries match\.\n$/m);
    expect(actor.stdout).toMatch(/\n1 of 5 entries match\.\n$/);
  });

  it('--verdict block --rule circular_dependency finds the blocked cycle, not the overridden overrun', async () => {
    const run = await query('--verdict', 'block', '--rule', 'circular_dependency');
    expect(run.code).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => /^\d+ +\d{4}-/.test(line));
    expect(rows).toEqual([expect.stringMatching(/^5 .*check \(staged\) .* block /)]);
    expect(run.stdout).toMatch(/\n1 of 5 entries match\.\n$/);
    // The rule id exactly: a part of it is no match.
    const part = await query('--rule', 'circular');
    expect(part.stdout).toBe(
      'no entry of .aureus/local/ledger.jsonl matches.\n\n0 of 5 entries match.\n',
    );
  });

  it('--format json gives each match with its line number, at, hash and record', async () => {
    const run = await query('--overridden', '--format', 'json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(Object.keys(result)).toEqual([
      'file',
      'verified',
      'problems',
      'anchor',
      'entries',
      'matched',
      'matches',
      'reasonsCut',
    ]);
    expect(result).toMatchObject({ verified: true, problems: [], anchor: null, entries: 5 });
    expect(result.matched).toBe(1);
    expect(Object.keys(result.matches[0])).toEqual(['lineNumber', 'at', 'hash', 'record']);
    expect(result.matches[0]).toMatchObject({
      lineNumber: 3,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      record: { kind: 'check', override: { reason: 'release today' } },
    });
  });
});

const APP_TIMES = [
  '2026-11-20T10:00:00.000Z',
  '2026-11-21T09:00:00.000Z',
  '2026-11-21T12:00:00.000Z',
  '2026-11-21T23:59:59.999Z',
  '2026-11-22T08:00:00.000Z',
  '2026-11-22T09:00:00.000Z',
  '2026-11-23T09:00:00.000Z',
];

/** The App's and the builder's entries, as they write them, one per time above. */
const APP_RECORDS: JsonObject[] = [
  {
    kind: 'check',
    event: 'pull_request',
    verdict: 'block',
    head: 'a'.repeat(40),
    cost: { total: 640 },
    reasons: ['the change costs 640 points, over the budget of 500; mona approved the overrun'],
    override: { by: 'Mona-Maintainer', reason: 'release' },
  },
  {
    kind: 'check',
    event: 'pull_request',
    verdict: 'pass',
    head: 'b'.repeat(40),
    cost: { total: 20 },
    reasons: ['worsened god_class (within its growth tolerance): class Big has 41 methods'],
    policyLoosened: ['budgets.change.block: 500 -> 900'],
    policyApproval: { by: 'admin-alice', accountId: 9, reason: 'new budget', head: 'b'.repeat(40) },
  },
  {
    kind: 'builder-trigger',
    via: 'label',
    actor: 'octocat',
    actorId: 1,
    issue: 7,
    decision: 'accepted',
    reason: 'started',
  },
  {
    kind: 'builder-trigger',
    via: 'comment',
    actor: 'hub\u001b[31mot',
    actorId: 2,
    issue: 8,
    decision: 'refused',
    reason: 'not a writer',
  },
  { kind: 'builder-cancel', actor: 'octocat', actorId: 1, issue: 7, run: 'r1' },
  { kind: 'builder-run', id: 'r2', branch: 'aureus/fix-r2', status: 'done', verdict: 'warn' },
  {
    kind: 'check',
    event: 'push',
    verdict: 'block',
    head: 'c'.repeat(40),
    cost: { total: 90 },
    reasons: ['new di_container: class Container registers 30 services'],
    reasonsTotal: 75,
  },
];

describe('aureus ledger query --file over the App ledger', () => {
  let folder: Awaited<ReturnType<typeof makeTempDir>>;
  let file: string;
  const query = (...args: string[]) =>
    runCliInProcess(['ledger', 'query', '--file', file, ...args], folder.path);
  const rows = (stdout: string) =>
    stdout
      .split('\n')
      .flatMap((line) => (/^\d+ +\d{4}-/.test(line) ? [Number(line.split(' ')[0])] : []));

  beforeAll(async () => {
    folder = await makeTempDir('ledger-query-app');
    file = join(folder.path, '1234.jsonl');
    for (const [index, record] of APP_RECORDS.entries()) {
      const at = new Date(APP_TIMES[index] ?? '');
      await appendToJournal(file, record, { now: () => at });
    }
  });
  afterAll(() => folder.remove());

  it('--kind and --actor combine: the builder triggers octocat requested', async () => {
    const run = await query('--kind', 'builder-trigger', '--actor', 'OCTO');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(rows(run.stdout)).toEqual([3]);
    expect(run.stdout).toContain('  builder-trigger (#7, by octocat, accepted)\n');
    expect(run.stdout).toMatch(/\n1 of 7 entries match\.\n$/);
  });

  it('--issue finds the trigger and the cancel of that issue', async () => {
    expect(rows((await query('--issue', '7')).stdout)).toEqual([3, 5]);
  });

  it('--actor reads approvers of budgets and policies; names are shown neutralised', async () => {
    expect(rows((await query('--actor', 'mona')).stdout)).toEqual([1]);
    expect(rows((await query('--actor', 'Admin-')).stdout)).toEqual([2]);
    const hubot = await query('--actor', 'hub');
    expect(rows(hubot.stdout)).toEqual([4]);
    expect(hubot.stdout).not.toContain('\u001b');
    expect(hubot.stdout).toContain('hub?[31mot');
  });

  it('--overridden keeps the budget override and the policy approval, and says who let each through', async () => {
    const run = await query('--overridden');
    expect(rows(run.stdout)).toEqual([1, 2]);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(/ block +640 +yes \(Mona-Maintainer\)$/);
    expect(lines[2]).toMatch(/ pass +20 +policy \(admin-alice\)$/);
    expect(lines.slice(3)).toEqual([
      '',
      'Overrides:',
      `  #1  ${'a'.repeat(12)}  overridden by Mona-Maintainer: release`,
      `  #2  ${'b'.repeat(12)}  policy loosening approved by admin-alice: new budget`,
      '',
      '2 of 7 entries match.',
    ]);
  });

  it('--since and --until take dates (whole days) and date-times with offsets', async () => {
    expect(rows((await query('--since', '2026-11-21', '--until', '2026-11-21')).stdout)).toEqual([
      2, 3, 4,
    ]);
    const offset = await query('--since', '2026-11-22T09:00+01:00', '--until', '2026-11-22T09:00');
    expect(rows(offset.stdout)).toEqual([5, 6]);
    expect(rows((await query('--since', '2026-11-23')).stdout)).toEqual([7]);
  });

  it('--rule counts apart a record that kept only its first reasons', async () => {
    const run = await query('--rule', 'god_class');
    expect(rows(run.stdout)).toEqual([2]);
    expect(run.stdout).toMatch(
      /\n1 more may match: #7 kept only the first of their reasons, and rule god_class is not among those\.\n\n1 of 7 entries match\.\n$/,
    );
    const json = JSON.parse((await query('--rule', 'god_class', '--format', 'json')).stdout);
    expect(json.reasonsCut).toEqual([7]);
  });

  it('says no line has an unknown kind, listing the kinds there are (exit 0)', async () => {
    const run = await query('--kind', 'builder-merge');
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `no line of 1234.jsonl has kind "builder-merge" (its kinds: builder-cancel, builder-run, builder-trigger, check).\n\n0 of 7 entries match.\n`,
    });
  });

  it.each([
    [['--since', '2026-02-30'], '--since "2026-02-30" is not a date.', 'give an ISO 8601 date'],
    [['--until', 'yesterday'], '--until "yesterday" is not a date.', 'give an ISO 8601 date'],
    [
      ['--verdict', 'failed'],
      '--verdict "failed" is not a verdict.',
      'use one of pass, warn, block, incomplete.',
    ],
    [['--issue', '7a'], '--issue "7a" is not an issue number.', 'give the number of the issue'],
    [['--actor', ' '], '--actor is empty.', 'name the actor to look for'],
    [
      ['--since', '2026-11-22', '--until', '2026-11-21'],
      '--since 2026-11-22 is not before --until 2026-11-21: no line could match.',
      'give the earlier date to --since',
    ],
  ])('refuses %j, saying what is accepted (exit 2)', async (args, message, hint) => {
    const run = await query(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`aureus: ${message}\nTo resolve, ${hint}`);
  });

  it('says first that a tampered ledger does not verify, then answers, exit 1', async () => {
    const tampered = join(folder.path, 'tampered.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[2] = (lines[2] ?? '').replace('"decision":"accepted"', '"decision":"refused"');
    await writeFile(tampered, lines.join('\n'));
    const run = await runCliInProcess(
      ['ledger', 'query', '--file', tampered, '--actor', 'octocat'],
      folder.path,
    );
    expect(run.code).toBe(1);
    const out = run.stdout.split('\n');
    expect(out.slice(0, 3)).toEqual([
      'tampered.jsonl:3: checksum: line 3 was edited after it was written (its hash does not match its content); skipped',
      'tampered.jsonl does not verify: the answer below leaves out its damaged lines and cannot vouch for the rest (aureus ledger verify says more).',
      '',
    ]);
    expect(rows(run.stdout)).toEqual([5]);
    expect(run.stdout).toMatch(/\n1 of 6 entries match, in a ledger that does not verify\.\n$/);
    const json = await runCliInProcess(
      ['ledger', 'query', '--file', tampered, '--format', 'json'],
      folder.path,
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      verified: false,
      problems: [expect.objectContaining({ lineNumber: 3, kind: 'checksum' })],
      matched: 6,
    });
  });
});
