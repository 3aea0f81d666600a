import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { appendToJournal } from '../../src/memory/journal.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A check record as `aureus check` writes it, with the fields the dashboard reads. */
function check(cost: number, extra: Record<string, unknown> = {}) {
  return {
    kind: 'check',
    source: 'commit',
    head: 'a1b2c3d4e5f60718',
    verdict: cost > 100 ? 'block' : 'pass',
    cost: { total: cost },
    budget: { block: 100, remaining: 100 - cost },
    rules: [{ rule: 'god_class', new: 1, worsened: 0, baseline: 2 }],
    fileCosts: [{ path: 'src/a.ts', points: cost }],
    core: {
      loc: 900,
      locTarget: 4000,
      locHard: 8000,
      files: 10,
      filesBudget: 25,
      modules: 2,
      modulesBudget: 6,
    },
    override: null,
    ...extra,
  };
}

describe('aureus report', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let first: string;
  let second: string;
  beforeEach(async () => {
    temp = await makeTempDir('report-cli');
    first = join(temp.path, 'first.jsonl');
    second = join(temp.path, 'second.jsonl');
    const at = (iso: string) => () => new Date(iso);
    await appendToJournal(first, check(40), { now: at('2026-11-20T10:00:00Z') });
    await appendToJournal(
      first,
      check(140, { override: { by: 'Ada', reason: '</script><script>alert(1)</script>' } }),
      { now: at('2026-11-22T10:00:00Z') },
    );
    await appendToJournal(second, check(70), { now: at('2026-11-21T10:00:00Z') });
  });
  afterEach(() => temp.remove());

  it('gives the numbers of several ledgers as JSON, one repository each, from --since on', async () => {
    const run = await runCliInProcess(
      [
        'report',
        '--format',
        'json',
        '--ledger',
        first,
        '--ledger',
        second,
        '--since',
        '2026-11-21',
      ],
      temp.path,
    );
    expect(run.code).toBe(0);
    const model = JSON.parse(run.stdout);
    expect(model.since).toBe('2026-11-21');
    expect(model.repositories.map((r: { name: string }) => r.name)).toEqual([
      'first.jsonl',
      'second.jsonl',
    ]);
    const [one, two] = model.repositories;
    expect(one.checks).toEqual([
      expect.objectContaining({
        cost: 140,
        budget: 100,
        override: { by: 'Ada', reason: '</script><script>alert(1)</script>' },
      }),
    ]);
    expect(one.overrides).toEqual([{ rule: 'god_class', by: 'Ada', count: 1 }]);
    expect(one.core[0]).toMatchObject({ loc: 900, locHard: 8000 });
    expect(two.costliestFiles).toEqual([{ path: 'src/a.ts', points: 70, checks: 1 }]);
    expect(two.prediction).toEqual([]);
  });

  it('shows the findings fixed over time by rule, as memory patterns counts them, in JSON and on the page', async () => {
    const ledger = join(temp.path, 'fixes.jsonl');
    const found = (...rules: string[]) =>
      rules.map((rule) => ({ rule, fingerprint: `${rule}:src/x.ts` }));
    const at = (iso: string) => ({ now: () => new Date(iso) });
    const line = (base: string, head: string, rules: string[]) =>
      check(10, { base, head, found: found(...rules) });
    await appendToJournal(
      ledger,
      line('0'.repeat(40), 'a'.repeat(40), ['god_class', 'circular_dependency', 'event_bus']),
      at('2026-11-17T10:00:00Z'),
    );
    // The next change starts where the first ended and no longer has the cycle: a fix.
    await appendToJournal(
      ledger,
      line('a'.repeat(40), 'b'.repeat(40), ['god_class', 'event_bus']),
      at('2026-11-18T10:00:00Z'),
    );
    // The week after, the god class and the event bus go.
    await appendToJournal(
      ledger,
      line('b'.repeat(40), 'c'.repeat(40), []),
      at('2026-11-24T10:00:00Z'),
    );
    const run = await runCliInProcess(
      ['report', '--format', 'json', '--ledger', ledger],
      temp.path,
    );
    expect(run.code).toBe(0);
    const [repository] = JSON.parse(run.stdout).repositories;
    expect(repository.fixesByRule).toEqual([
      { rule: 'circular_dependency', fixes: 1, weeks: [{ week: '2026-11-16', fixes: 1 }] },
      { rule: 'event_bus', fixes: 1, weeks: [{ week: '2026-11-23', fixes: 1 }] },
      { rule: 'god_class', fixes: 1, weeks: [{ week: '2026-11-23', fixes: 1 }] },
    ]);
    const page = join(temp.path, 'fixes.html');
    expect(
      (await runCliInProcess(['report', '--ledger', ledger, '--output', page], temp.path)).code,
    ).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<h3>Findings fixed by rule</h3>');
    expect(html).toContain('data-chart="r0-fixes"');
    expect(html).not.toContain('Fixed findings: no data yet');
  });

  it('writes one page whose ledger text cannot close its script or open a tag', async () => {
    const page = join(temp.path, 'page.html');
    const run = await runCliInProcess(['report', '--ledger', first, '--output', page], temp.path);
    expect(run).toMatchObject({ code: 0, stdout: 'aureus: wrote page.html.\n' });
    const html = readFileSync(page, 'utf8');
    expect(html.match(/<script>/g)).toHaveLength(2);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/src="http|href="http/);
  });

  it('never writes through a link at --output', async () => {
    const outside = join(temp.path, 'outside.txt');
    writeFileSync(outside, 'kept');
    const page = join(temp.path, 'page.html');
    symlinkSync(outside, page);
    const run = await runCliInProcess(['report', '--ledger', first, '--output', page], temp.path);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a symbolic link');
    expect(readFileSync(outside, 'utf8')).toBe('kept');
  });

  it('says a ledger that does not verify, and exits 1', async () => {
    const lines = readFileSync(first, 'utf8').split('\n');
    writeFileSync(
      first,
      [lines[0]?.replace('"total":40', '"total":4'), ...lines.slice(1)].join('\n'),
    );
    const run = await runCliInProcess(['report', '--format', 'json', '--ledger', first], temp.path);
    expect(run.code).toBe(1);
    const [repository] = JSON.parse(run.stdout).repositories;
    expect(repository).toMatchObject({ verified: false, damaged: 1 });
  });
});
