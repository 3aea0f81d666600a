import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { appendToJournal } from '../../src/memory/journal.js';
import { ensureLocalDir, storePaths } from '../../src/memory/store-paths.js';
import { useHookTestEnvironment } from '../hooks/hook-fixture.js';
import { useAureusProcesses } from '../support/aureus-process.js';
import { makeRepo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const aureus = useAureusProcesses();
useHookTestEnvironment();

describe('aureus ledger', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let ledger: string;
  beforeEach(async () => {
    temp = await makeTempDir('ledger-cli');
    await ensureLocalDir(temp.path);
    ledger = storePaths(temp.path).ledger;
    let second = new Date('2026-11-21T10:00:00.000Z').getTime();
    const now = () => {
      second += 1000;
      return new Date(second);
    };
    await appendToJournal(
      ledger,
      { kind: 'check', verdict: 'pass', cost: { total: 120 }, head: 'a1b2c3d4e5f60718' },
      { now },
    );
    await appendToJournal(
      ledger,
      { kind: 'check', verdict: 'block', cost: { total: 640 }, head: 'ffeeddccbbaa9988' },
      { now },
    );
    await appendToJournal(ledger, { note: 'override \u001b[31mred\u001b[0m' }, { now });
  });
  afterEach(() => temp.remove());

  const lines = async (): Promise<string[]> =>
    (await readFile(ledger, 'utf8')).trimEnd().split('\n');

  it('shows a table under headings, with control characters neutralised', async () => {
    const run = await runCliInProcess(['ledger', 'show'], temp.path);
    expect(run.code).toBe(0);
    const shown = run.stdout.trimEnd().split('\n');
    expect(shown).toHaveLength(4);
    expect(shown[0]).toMatch(/^# {2}WHEN +EVENT +COMMIT +VERDICT +COST +OVERRIDE$/);
    expect(shown[1]).toMatch(
      /^1 {2}2026-11-21T10:00:01\.000Z {2}check +a1b2c3d4e5f6 {2}pass {5}120$/,
    );
    expect(shown[2]).toMatch(/ffeeddccbbaa {2}block {4}640$/);
    expect(shown[3]).toContain('{"note":"override \\u001b[31mred\\u001b[0m"}');
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('Overrides:');
  });

  it('lists every override below the table: who, why and the commit', async () => {
    await appendToJournal(ledger, {
      kind: 'check',
      source: 'staged',
      verdict: 'block',
      cost: { total: 900 },
      head: '0123456789abcdef',
      override: { by: 'Ada <ada@example.com>', reason: 'hotfix \u001b[31mnow' },
    });
    const run = await runCliInProcess(['ledger', 'show'], temp.path);
    expect(run.code).toBe(0);
    const shown = run.stdout.trimEnd().split('\n');
    expect(shown[4]).toMatch(
      /check \(staged\) +0123456789ab {2}block +900 +yes \(Ada <ada@example\.com>\)$/,
    );
    expect(shown.slice(5)).toEqual([
      '',
      'Overrides:',
      '  #4  0123456789ab  overridden by Ada <ada@example.com>: hotfix ?[31mnow',
    ]);
    const json = JSON.parse(
      (await runCliInProcess(['ledger', 'show', '--format', 'json'], temp.path)).stdout,
    );
    expect(Object.keys(json)).toEqual(['file', 'entries', 'problems']);
    expect(json.entries[3].record.override.by).toBe('Ada <ada@example.com>');
  });

  it('names policy approvals beside overrides, and who requested a builder run for which issue', async () => {
    await appendToJournal(ledger, {
      kind: 'check',
      verdict: 'pass',
      cost: { total: 20 },
      head: 'bbbbbbbbbbbbbbbb',
      policyApproval: { by: 'admin-alice', accountId: 9, reason: 'new budget' },
    });
    await appendToJournal(ledger, {
      kind: 'builder-trigger',
      actor: 'octocat',
      issue: 7,
      decision: 'refused',
    });
    const shown = (await runCliInProcess(['ledger', 'show'], temp.path)).stdout
      .trimEnd()
      .split('\n');
    expect(shown[4]).toMatch(/ bbbbbbbbbbbb {2}pass +20 +policy \(admin-alice\)$/);
    expect(shown[5]).toMatch(/^5 .* builder-trigger \(#7, by octocat, refused\)$/);
    expect(shown.slice(6)).toEqual([
      '',
      'Overrides:',
      '  #4  bbbbbbbbbbbb  policy loosening approved by admin-alice: new budget',
    ]);
  });

  it('verifies an intact ledger with exit 0', async () => {
    const run = await runCliInProcess(['ledger', 'verify'], temp.path);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '.aureus/local/ledger.jsonl: 3 entries, every checksum and link verified.\n',
    );
  });

  it('exits 1 and names the line when a middle line was edited', async () => {
    const edited = await lines();
    edited[1] = (edited[1] ?? '').replace('"verdict":"block"', '"verdict":"pass"');
    await writeFile(ledger, `${edited.join('\n')}\n`);
    const run = await runCliInProcess(['ledger', 'verify'], temp.path);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '.aureus/local/ledger.jsonl:2: checksum: line 2 was edited after it was written',
    );
    const show = await runCliInProcess(['ledger', 'show'], temp.path);
    expect(show.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(show.stderr).toContain('.aureus/local/ledger.jsonl:2:');
  });

  it('exits 1 when a middle line was deleted', async () => {
    const kept = await lines();
    kept.splice(1, 1);
    await writeFile(ledger, `${kept.join('\n')}\n`);
    const run = await runCliInProcess(['ledger', 'verify', '--format', 'json'], temp.path);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout);
    expect(result.intact).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({
        lineNumber: 2,
        kind: 'chain',
        message: expect.stringContaining('line 2 does not follow line 1'),
      }),
    ]);
  });

  it('refuses a --file that does not exist rather than verify nothing (exit 2)', async () => {
    const run = await runCliInProcess(['ledger', 'verify', '--file', 'typo.jsonl'], temp.path);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'aureus: typo.jsonl does not exist, and no anchor beside it says it ever did.\nTo resolve, check the path given to --file.\n',
    });
  });

  it('treats a missing ledger as empty and refuses unknown formats', async () => {
    const empty = await makeRepo('ledger-empty');
    try {
      const run = await runCliInProcess(['ledger', 'show', '--repo', empty.dir], temp.path);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/ledger\.jsonl: no entries\.\n$/);
      const sarif = await runCliInProcess(['ledger', 'show', '--format', 'sarif'], temp.path);
      expect(sarif.code).toBe(2);
      expect(sarif.stderr).toContain('use --format text or json.');
    } finally {
      await empty.remove();
    }
  });
});

describe('aureus ledger outside a git repository', () => {
  it.each([['verify'], ['show']])(
    'aureus ledger %s writes nothing in the folder and says it is no repository (exit 2)',
    async (action) => {
      const folder = await makeTempDir('no-repository');
      try {
        await writeFile(`${folder.path}/notes.txt`, 'mine\n');
        const listing = () => readdirSync(folder.path, { recursive: true }).sort();
        const before = listing();

        const run = await aureus(folder.path, ['ledger', action]);

        expect(listing()).toEqual(before);
        expect(run.stdout).toBe('');
        expect(run.stderr).toBe(
          `aureus: ${folder.path} is not in a git repository, so it has no local ledger (.aureus/local/ledger.jsonl).\nTo resolve, run in the repository whose ledger you mean or name it with --repo DIR; a ledger file elsewhere, with --file FILE.\n`,
        );
        expect(run.code).toBe(2);
      } finally {
        await folder.remove();
      }
    },
  );
});
