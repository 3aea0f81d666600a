import { lstat, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { appendToJournal } from '../../src/memory/journal.js';
import type { JsonObject } from '../../src/model/json.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
/** The Monday (UTC) of a time's week, as the registry names weeks. */
const weekOf = (at: Date) =>
  new Date(at.getTime() - ((at.getUTCDay() + 6) % 7) * DAY).toISOString().slice(0, 10);

const POLICY = `version: 1
forbidden_patterns:
  premature_abstraction:
    severity: error
memory:
  patterns_retention_days: 30
`;

const SHAPE =
  'export interface Shape {\n  area(): number;\n}\nexport class Square implements Shape {\n  area(): number {\n    return 1;\n  }\n}\n';
const STORE =
  'export interface Store {\n  get(): string;\n}\nexport class MemoryStore implements Store {\n  get(): string {\n    return "x";\n  }\n}\n';

let restoreGit: () => Promise<void>;
beforeAll(async () => {
  restoreGit = await isolateGit();
});
afterAll(() => restoreGit());

/**
 * premature_abstraction fires in two commits, each let through by `check --override`, and a third
 * commit removes both interfaces: real checks write the local ledger; their records are then
 * laid into an App ledger three weeks apart, with one more from before the retention.
 */
describe('aureus memory patterns', () => {
  let repo: Repo & { remove(): Promise<void> };
  /** A clone's view: the same policy, no local ledger; the App's ledger read with --file. */
  let reader: Repo & { remove(): Promise<void> };
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let appLedger: string;
  const commits: string[] = [];

  beforeAll(async () => {
    repo = await makeRepo('memory-patterns');
    temp = await makeTempDir('memory-patterns-app');
    repo.write('.gitignore', '.aureus/local/\n');
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/base.ts', 'export const base = 0;\n');
    repo.commit('base');
    for (const [file, text, reason] of [
      ['src/shape.ts', SHAPE, 'shapes grow a circle next sprint'],
      ['src/store.ts', STORE, 'a second store is coming'],
    ] as const) {
      repo.write(file, text);
      commits.push(repo.commit(`add ${file}`));
      const blocked = await runCliInProcess(['check', '--commit', 'HEAD'], repo.dir);
      expect(blocked.stdout).toContain('new premature_abstraction');
      expect(blocked.code).toBe(1);
      const run = await runCliInProcess(
        ['check', '--commit', 'HEAD', '--override', reason],
        repo.dir,
      );
      expect(run.code).toBe(0);
    }
    repo.write(
      'src/shape.ts',
      'export class Square {\n  area(): number {\n    return 1;\n  }\n}\n',
    );
    repo.write(
      'src/store.ts',
      'export class MemoryStore {\n  get(): string {\n    return "x";\n  }\n}\n',
    );
    commits.push(repo.commit('drop the single-implementation interfaces'));
    expect((await runCliInProcess(['check', '--commit', 'HEAD'], repo.dir)).code).toBe(0);

    const local = await readFile(join(repo.dir, '.aureus/local/ledger.jsonl'), 'utf8');
    const records: JsonObject[] = local
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).record);
    expect(records).toHaveLength(5);
    appLedger = join(temp.path, 'ledger.jsonl');
    // Before the retention: an override that must not show.
    await appendToJournal(
      appLedger,
      {
        ...records[1],
        head: 'f'.repeat(40),
        base: 'e'.repeat(40),
        override: { by: 'Old Timer', reason: 'ancient override' },
      },
      { now: () => daysAgo(40) },
    );
    const ages = [21, 21, 14, 14, 7];
    for (const [index, record] of records.entries())
      await appendToJournal(appLedger, record, { now: () => daysAgo(ages[index] ?? 0) });
    reader = await makeRepo('memory-patterns-reader');
    reader.write('.aureus/policy.yaml', POLICY);
    reader.commit('policy');
  });
  afterAll(async () => {
    await reader.remove();
    await repo.remove();
    await temp.remove();
  });

  it('shows each week of the rule: where it fired, both overrides with who and why, the fixes', async () => {
    const run = await runCliInProcess(['memory', 'patterns', '--file', appLedger], reader.dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [first, second, third] = commits.map((commit) => commit.slice(0, 12));
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^aureus memory patterns: 3 checked changes, since \S+ \(memory\.patterns_retention_days: 30\)\.$/,
    );
    const at = (line: string) => line.replace(/ \d{4}-\d\d-\d\dT[\d:.]+Z /, ' <at> ');
    expect(lines.slice(2).map(at)).toEqual([
      'premature_abstraction: fired in 2 checks, overridden 2 times, 2 findings fixed',
      `  week of ${weekOf(daysAgo(21))}: fired 1, overridden 1, fixed 0`,
      `    override <at> ${first} by Test Author <author@example.test>: shapes grow a circle next sprint`,
      `  week of ${weekOf(daysAgo(14))}: fired 1, overridden 1, fixed 0`,
      `    override <at> ${second} by Test Author <author@example.test>: a second store is coming`,
      `  week of ${weekOf(daysAgo(7))}: fired 0, overridden 0, fixed 2`,
      expect.stringMatching(
        new RegExp(`^ {4}fixed {4}<at> ${third} finding [0-9a-f]+ \\(present at ${second}\\)$`),
      ),
      expect.stringMatching(
        new RegExp(`^ {4}fixed {4}<at> ${third} finding [0-9a-f]+ \\(present at ${second}\\)$`),
      ),
      '',
    ]);
    expect(run.stdout).not.toContain('ancient override');
  });

  it('--write writes the registry as JSON to .aureus/patterns.json, as --format json prints it', async () => {
    const run = await runCliInProcess(
      ['memory', 'patterns', '--file', appLedger, '--format', 'json', '--write'],
      reader.dir,
    );
    expect(run.code).toBe(0);
    const registry = JSON.parse(run.stdout);
    expect(registry).toMatchObject({ retentionDays: 30, checks: 3, withoutFindings: 0 });
    expect(registry.rules).toEqual([
      expect.objectContaining({ rule: 'premature_abstraction', fired: 2, overrides: 2, fixes: 2 }),
    ]);
    expect(registry.rules[0].weeks).toHaveLength(3);
    expect(registry.rules[0].weeks[0].overrides[0]).toMatchObject({
      by: 'Test Author <author@example.test>',
      reason: 'shapes grow a circle next sprint',
      commit: commits[0],
    });
    expect(await readFile(join(reader.dir, '.aureus/patterns.json'), 'utf8')).toBe(run.stdout);
  });

  it('reads every --file given, counting a change several ledgers recorded once', async () => {
    const copy = join(temp.path, 'copy.jsonl');
    await writeFile(copy, await readFile(appLedger));
    const once = await runCliInProcess(['memory', 'patterns', '--file', appLedger], reader.dir);
    const twice = await runCliInProcess(
      ['memory', 'patterns', '--file', appLedger, '--file', copy],
      reader.dir,
    );
    expect(twice.code).toBe(0);
    // All but the first line, which names the retention's start to the millisecond.
    const body = (stdout: string) => stdout.split('\n').slice(1);
    expect(body(twice.stdout)).toEqual(body(once.stdout));
    const refused = await runCliInProcess(
      ['ledger', 'show', '--file', appLedger, '--file', copy],
      reader.dir,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'aureus ledger show reads one file, and --file was given 2 times.',
    );
  });

  it('reads the local ledger by default: the same rule, all in this week', async () => {
    const run = await runCliInProcess(['memory', 'patterns', '--format', 'json'], repo.dir);
    expect(run.code).toBe(0);
    const [rule] = JSON.parse(run.stdout).rules;
    expect(rule).toMatchObject({ fired: 2, overrides: 2, fixes: 2 });
    expect(rule.weeks).toHaveLength(1);
  });

  it('never writes through a link at .aureus/patterns.json', async () => {
    const outside = join(temp.path, 'outside.json');
    // The file an earlier test wrote, replaced by the link a checkout could commit.
    await rm(join(repo.dir, '.aureus/patterns.json'), { force: true });
    await symlink(outside, join(repo.dir, '.aureus/patterns.json'));
    const run = await runCliInProcess(['memory', 'patterns', '--write'], repo.dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a symbolic link; AUREUS never writes through a link.');
    await expect(lstat(outside)).rejects.toThrow();
  });
});
