import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { builderPullOf } from '../../src/bot/builder/builder-pull.js';
import { localLedgerAnchor } from '../../src/git/ledger-anchor.js';
import { appendToAppLedger, appLedgerPath } from '../../src/memory/app-ledger.js';
import { appendToJournal } from '../../src/memory/journal.js';
import { anchorBeside } from '../../src/memory/journal-anchor-file.js';
import { GENESIS_HASH } from '../../src/memory/journal-format.js';
import { ledgerAnchorMarker } from '../../src/memory/ledger-anchor-marker.js';
import { ensureLocalDir, storePaths } from '../../src/memory/store-paths.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/** The policy of these repositories: this machine's ledger keeps 30 days. */
const POLICY = 'version: 1\nmemory:\n  history_retention_days: 30\n';

describe('ledger retention: compaction, backups, restore', () => {
  let restoreGit: () => Promise<void>;
  beforeAll(async () => {
    restoreGit = await isolateGit();
  });
  afterAll(() => restoreGit());

  /**
   * A repository whose local ledger holds three checks from 400, 300 and 200 days ago and one
   * from today, each appended with the local anchor as `aureus check` appends them.
   */
  async function agedLedger(
    name: string,
  ): Promise<{ repo: Repo & { remove(): Promise<void> }; ledger: string }> {
    const repo = await makeRepo(name);
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('a.ts', 'export const a = 1;\n');
    repo.commit('first');
    await ensureLocalDir(repo.dir);
    const ledger = storePaths(repo.dir).ledger;
    const anchor = await localLedgerAnchor(repo.dir);
    const checks: [number, string][] = [
      [400, 'pass'],
      [300, 'block'],
      [200, 'pass'],
      [0, 'warn'],
    ];
    for (const [age, verdict] of checks)
      await appendToJournal(
        ledger,
        { kind: 'check', verdict, cost: { total: 10 }, override: null },
        { anchor, now: () => daysAgo(age) },
      );
    return { repo, ledger };
  }

  it('replaces the entries past retention by one summary; verify and the anchor still hold', async () => {
    const { repo, ledger } = await agedLedger('ledger-compact');
    try {
      const anchorBefore = await readFile(join(repo.dir, '.git/aureus/ledger.anchor.json'), 'utf8');
      const before = await readFile(ledger, 'utf8');
      const run = await runCliInProcess(['ledger', 'compact'], repo.dir);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(
        '.aureus/local/ledger.jsonl: 3 line(s) older than 30 days replaced by one summary line (3 entries summarized in all)',
      );
      expect(run.code).toBe(0);
      const lines = (await readFile(ledger, 'utf8')).trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      const summary = JSON.parse(lines[0] ?? '');
      expect(summary).toMatchObject({
        v: 2,
        prev: GENESIS_HASH,
        record: {
          kind: 'compaction',
          replaced: {
            lines: 3,
            entries: 3,
            verdicts: { pass: 2, block: 1 },
            kinds: { check: 3 },
            costTotal: 30,
            tail: JSON.parse(before.split('\n')[2] ?? '').hash,
          },
        },
      });
      expect(lines[1]).toBe(before.split('\n')[3]);
      // The anchor still names the same line (the 4th as written) and needs no rewrite.
      expect(await readFile(join(repo.dir, '.git/aureus/ledger.anchor.json'), 'utf8')).toBe(
        anchorBefore,
      );
      const verify = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(verify.stdout).toBe(
        '.aureus/local/ledger.jsonl: 2 entries, every checksum and link verified.\n',
      );
      expect(verify.code).toBe(0);
      const backups = (await readdir(join(repo.dir, '.aureus/local'))).filter((name) =>
        name.startsWith('ledger.jsonl.bak-'),
      );
      expect(backups).toHaveLength(1);
      expect(await readFile(join(repo.dir, '.aureus/local', backups[0] ?? ''), 'utf8')).toBe(
        before,
      );
    } finally {
      await repo.remove();
    }
  });

  it('still catches an edited or deleted summary after compaction', async () => {
    const { repo, ledger } = await agedLedger('ledger-compact-tamper');
    try {
      expect((await runCliInProcess(['ledger', 'compact'], repo.dir)).code).toBe(0);
      const compacted = await readFile(ledger, 'utf8');
      await writeFile(ledger, compacted.replace('"block":1', '"block":0'));
      const edited = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(edited.stdout).toContain('line 1 was edited after it was written');
      expect(edited.code).toBe(1);
      await writeFile(ledger, `${compacted.split('\n')[1]}\n`);
      const deleted = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(deleted.stdout).toContain('line 1 does not follow the start of the journal');
      expect(deleted.code).toBe(1);
    } finally {
      await repo.remove();
    }
  });

  it('compacts on its own when `aureus check` appends and the oldest entry is a day past retention', async () => {
    const { repo, ledger } = await agedLedger('ledger-compact-on-append');
    try {
      repo.write('a.ts', 'export const a = 2;\n');
      repo.git('add', 'a.ts');
      const check = await runCliInProcess(['check', '--staged'], repo.dir);
      expect(check.code).toBe(0);
      const lines = (await readFile(ledger, 'utf8')).trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      expect(JSON.parse(lines[0] ?? '').record.kind).toBe('compaction');
      expect(JSON.parse(lines[2] ?? '').record.kind).toBe('check');
      const verify = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(verify.code).toBe(0);
    } finally {
      await repo.remove();
    }
  });

  it('restores a damaged ledger from its backup, keeping the lines appended since', async () => {
    const { repo, ledger } = await agedLedger('ledger-restore');
    try {
      expect((await runCliInProcess(['ledger', 'compact'], repo.dir)).code).toBe(0);
      repo.write('a.ts', 'export const a = 2;\n');
      repo.git('add', 'a.ts');
      expect((await runCliInProcess(['check', '--staged'], repo.dir)).code).toBe(0);
      const good = await readFile(ledger, 'utf8');
      // The newest line the backup also holds is edited: the summary no longer links.
      const lines = good.split('\n');
      await writeFile(
        ledger,
        [lines[0], lines[1]?.replace('"warn"', '"pass"'), ...lines.slice(2)].join('\n'),
      );
      expect((await runCliInProcess(['ledger', 'verify'], repo.dir)).code).toBe(1);
      const restore = await runCliInProcess(['ledger', 'restore'], repo.dir);
      expect(restore.stdout).toMatch(
        /^\.aureus\/local\/ledger\.jsonl: restored from \.aureus\/local\/ledger\.jsonl\.bak-\d{8}T\d{6}Z, with 1 line\(s\) appended after it kept as they were\.\n$/,
      );
      expect(restore.code).toBe(0);
      const verify = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(verify.stdout).toBe(
        '.aureus/local/ledger.jsonl: 5 entries, every checksum and link verified.\n',
      );
      expect(verify.code).toBe(0);
    } finally {
      await repo.remove();
    }
  });

  it('never turns deleted lines into a ledger that verifies', async () => {
    const { repo, ledger } = await agedLedger('ledger-restore-deleted');
    try {
      expect((await runCliInProcess(['ledger', 'compact'], repo.dir)).code).toBe(0);
      for (const value of [2, 3, 4]) {
        repo.write('a.ts', `export const a = ${value};\n`);
        repo.git('add', 'a.ts');
        expect((await runCliInProcess(['check', '--staged'], repo.dir)).code).toBe(0);
      }
      // The last two lines are deleted: verify says so, through the anchor.
      const lines = (await readFile(ledger, 'utf8')).split('\n').filter((line) => line !== '');
      await writeFile(ledger, `${lines.slice(0, -2).join('\n')}\n`);
      expect((await runCliInProcess(['ledger', 'verify'], repo.dir)).code).toBe(1);
      // Restoring from the backup keeps what is left, and must not make the deletion vanish.
      const restore = await runCliInProcess(['ledger', 'restore'], repo.dir);
      expect(restore.stdout).toContain(
        'The anchor records 2 line(s) past what the restored ledger holds: they are lost',
      );
      expect(restore.code).toBe(1);
      const verify = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(verify.code).toBe(1);
      expect(verify.stdout + verify.stderr).toContain('deleted');
    } finally {
      await repo.remove();
    }
  });

  it('says which lines a restore could not keep', async () => {
    const { repo, ledger } = await agedLedger('ledger-restore-lost');
    try {
      expect((await runCliInProcess(['ledger', 'compact'], repo.dir)).code).toBe(0);
      for (const value of [2, 3]) {
        repo.write('a.ts', `export const a = ${value};\n`);
        repo.git('add', 'a.ts');
        expect((await runCliInProcess(['check', '--staged'], repo.dir)).code).toBe(0);
      }
      const lines = (await readFile(ledger, 'utf8')).split('\n');
      await writeFile(
        ledger,
        [...lines.slice(0, 2), lines[2]?.replace('"check"', '"chekc"'), ...lines.slice(3)].join(
          '\n',
        ),
      );
      const restore = await runCliInProcess(['ledger', 'restore'], repo.dir);
      expect(restore.stdout).toContain('with 0 line(s) appended after it kept as they were.');
      expect(restore.stdout).toContain(
        'lost: line 3 of the damaged ledger (20', // its time
      );
      expect(restore.stdout).toContain('damaged (torn, edited or unreadable)');
      expect(restore.stdout).toContain('lost: line 4 of the damaged ledger');
      expect(restore.stdout).toContain('after a lost line');
      expect(restore.stdout).toContain(
        'The anchor records 2 line(s) past what the restored ledger holds: they are lost, and the anchor is kept as the evidence',
      );
      expect(restore.code).toBe(1);
      // The file verifies line by line, but the anchor still says two lines are gone.
      expect((await runCliInProcess(['ledger', 'verify'], repo.dir)).code).toBe(1);
    } finally {
      await repo.remove();
    }
  });

  it('refuses to compact a ledger that does not verify', async () => {
    const { repo, ledger } = await agedLedger('ledger-compact-damaged');
    try {
      const text = await readFile(ledger, 'utf8');
      await writeFile(ledger, text.replace('"block"', '"pass"'));
      const run = await runCliInProcess(['ledger', 'compact'], repo.dir);
      expect(run.stderr).toContain('does not verify (line 2 was edited after it was written');
      expect(run.stderr).toContain('restore it first (aureus ledger restore)');
      expect(run.code).toBe(2);
      expect(await readFile(ledger, 'utf8')).toBe(text.replace('"block"', '"pass"'));
    } finally {
      await repo.remove();
    }
  });

  it("keeps who asked for each builder run through a compaction of the App's ledger", async () => {
    const data = await makeTempDir('app-ledger-builder-runs');
    try {
      const repository = { owner: 'octo', repo: 'app', id: 8 };
      const ledger = appLedgerPath(data.path, repository.id);
      for (const [age, record] of [
        [
          90,
          {
            kind: 'builder-trigger',
            decision: 'accepted',
            issue: 5,
            run: 'abcdef012345',
            actorId: 4001,
          },
        ],
        [80, { kind: 'builder-trigger', decision: 'refused', issue: 6, run: 'r2', actorId: 4002 }],
        [60, { kind: 'check', key: 'push:b', verdict: 'pass' }],
        [1, { kind: 'check', key: 'push:c', verdict: 'pass' }],
      ] as const)
        await appendToJournal(ledger, record, {
          now: () => daysAgo(age),
          anchor: anchorBeside(ledger),
        });
      await writeFile(
        join(data.path, 'policy.yaml'),
        'version: 1\nmemory:\n  ledger_retention_days: 30\n',
      );
      const pull = {
        number: 9,
        user: { id: 77 },
        head: { ref: 'aureus/issue-5-abcdef012345', sha: 'a'.repeat(40), repo: { id: 8 } },
      };
      expect((await builderPullOf(data.path, repository, pull))?.notIndependent).toEqual([
        4001, 77,
      ]);
      const compact = await runCliInProcess(
        ['ledger', 'compact', '--file', ledger, '--policy', 'policy.yaml'],
        data.path,
      );
      expect(compact.code).toBe(0);
      expect((await readFile(ledger, 'utf8')).split('\n')[0]).toContain('"kind":"compaction"');
      // The trigger line is gone; its requester is still not independent of the run.
      expect((await builderPullOf(data.path, repository, pull))?.notIndependent).toEqual([
        4001, 77,
      ]);
    } finally {
      await data.remove();
    }
  });

  it("compacts the App's ledger by ledger_retention_days; a check run's anchor still verifies", async () => {
    const data = await makeTempDir('app-ledger-compact');
    try {
      const ledger = appLedgerPath(data.path, 7);
      for (const [age, head] of [
        [90, 'a'],
        [60, 'b'],
        [1, 'c'],
      ] as const)
        await appendToJournal(
          ledger,
          { kind: 'check', key: `push:${head}`, verdict: 'pass' },
          { now: () => daysAgo(age), anchor: anchorBeside(ledger) },
        );
      const { anchor } = await appendToAppLedger(data.path, 7, 'push:d', {
        kind: 'check',
        verdict: 'pass',
      });
      await writeFile(
        join(data.path, 'policy.yaml'),
        'version: 1\nmemory:\n  ledger_retention_days: 30\n',
      );
      const compact = await runCliInProcess(
        ['ledger', 'compact', '--file', ledger, '--policy', 'policy.yaml'],
        data.path,
      );
      expect(compact.stdout).toContain('2 line(s) older than 30 days replaced by one summary line');
      expect(compact.code).toBe(0);
      const marker = ledgerAnchorMarker(anchor);
      const verify = await runCliInProcess(
        ['ledger', 'verify', '--file', ledger, '--anchor', marker],
        data.path,
      );
      expect(verify.stdout).toContain('3 entries, every checksum and link verified');
      expect(verify.code).toBe(0);
      // The line the App appends next is anchored at its number as written: 5.
      const next = await appendToAppLedger(data.path, 7, 'push:e', { kind: 'check' });
      expect(next.anchor.lines).toBe(5);
      expect((await runCliInProcess(['ledger', 'verify', '--file', ledger], data.path)).code).toBe(
        0,
      );
    } finally {
      await data.remove();
    }
  });
});

describe('journal line formats', () => {
  let restoreGit: () => Promise<void>;
  beforeAll(async () => {
    restoreGit = await isolateGit();
  });
  afterAll(() => restoreGit());

  /** A line as a given format writes it: format 1 has no `v`. */
  function lineOf(prev: string, record: object, version?: number): { text: string; hash: string } {
    const v = version === undefined ? '' : `"v":${version},`;
    // Yesterday: inside every retention, so no append compacts it away.
    const at = daysAgo(1).toISOString();
    const body = `{${v}"at":"${at}","prev":"${prev}","record":${JSON.stringify(record)}`;
    const hash = createHash('sha256').update(body).digest('hex');
    return { text: `${body},"hash":"${hash}"}`, hash };
  }

  it('reads a format-1 ledger and appends format-2 lines that chain to it', async () => {
    const repo = await makeRepo('ledger-format-1');
    try {
      repo.write('a.ts', 'export const a = 1;\n');
      repo.commit('first');
      await ensureLocalDir(repo.dir);
      const first = lineOf(GENESIS_HASH, { kind: 'check', verdict: 'pass' });
      const second = lineOf(first.hash, { kind: 'check', verdict: 'warn' });
      await writeFile(storePaths(repo.dir).ledger, `${first.text}\n${second.text}\n`);
      repo.write('a.ts', 'export const a = 2;\n');
      repo.git('add', 'a.ts');
      expect((await runCliInProcess(['check', '--staged'], repo.dir)).code).toBe(0);
      const lines = (await readFile(storePaths(repo.dir).ledger, 'utf8')).trimEnd().split('\n');
      expect(lines[2]).toMatch(new RegExp(`^\\{"v":2,"at":"[^"]+","prev":"${second.hash}"`));
      const verify = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(verify.stdout).toBe(
        '.aureus/local/ledger.jsonl: 3 entries, every checksum and link verified.\n',
      );
      expect(verify.code).toBe(0);
    } finally {
      await repo.remove();
    }
  });

  it('refuses a ledger with a line of a newer format, saying which AUREUS reads it', async () => {
    const repo = await makeRepo('ledger-format-newer');
    try {
      repo.write('a.ts', 'export const a = 1;\n');
      repo.commit('first');
      await ensureLocalDir(repo.dir);
      const first = lineOf(GENESIS_HASH, { kind: 'check', verdict: 'pass' }, 2);
      const newer = lineOf(first.hash, { kind: 'check', verdict: 'pass' }, 3);
      await writeFile(storePaths(repo.dir).ledger, `${first.text}\n${newer.text}\n`);
      const verify = await runCliInProcess(['ledger', 'verify'], repo.dir);
      expect(verify.stderr).toContain(
        'line 2 of the journal is in line format 3, written by a newer AUREUS; this AUREUS reads formats 1 to 2',
      );
      expect(verify.stderr).toContain('an AUREUS that reads journal format 3');
      expect(verify.code).toBe(2);
      repo.write('a.ts', 'export const a = 2;\n');
      repo.git('add', 'a.ts');
      const check = await runCliInProcess(['check', '--staged'], repo.dir);
      expect(check.stderr).toContain('is in line format 3, written by a newer AUREUS');
      expect((await readFile(storePaths(repo.dir).ledger, 'utf8')).split('\n')).toHaveLength(3);
    } finally {
      await repo.remove();
    }
  });
});
