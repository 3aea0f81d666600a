import { createHash } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { appendToJournal, readJournal } from '../../src/memory/journal.js';
import {
  GENESIS_HASH,
  type JournalContents,
  parseJournal,
} from '../../src/memory/journal-format.js';
import { AureusError } from '../../src/model/errors.js';
import type { JsonObject } from '../../src/model/json.js';

let dir: string;
let journal: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aureus-journal-'));
  journal = join(dir, 'ledger.jsonl');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * The documented line format, computed independently of the implementation: format 2 leads
 * with `"v":2`; format 1 (no `v`), which older ledgers hold, is still read.
 */
function hashOf(prev: string, at: string, record: JsonObject, format: 1 | 2 = 2): string {
  const v = format === 1 ? '' : `"v":${format},`;
  return createHash('sha256')
    .update(`{${v}"at":${JSON.stringify(at)},"prev":"${prev}","record":${JSON.stringify(record)}`)
    .digest('hex');
}

async function appendRecords(count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    await appendToJournal(journal, { n: i, note: `record ${i}` });
  }
}

async function fileLines(): Promise<string[]> {
  return (await readFile(journal, 'utf8')).split('\n').filter((line) => line !== '');
}

async function rewriteLines(lines: string[]): Promise<void> {
  await writeFile(journal, `${lines.join('\n')}\n`);
}

function summary(contents: JournalContents): [number, string][] {
  return contents.problems.map((problem) => [problem.lineNumber, problem.kind]);
}

function clock(...isoTimes: string[]): () => Date {
  let next = 0;
  return () => new Date(isoTimes[next++] ?? '2100-01-01T00:00:00.000Z');
}

describe('appendToJournal + readJournal: round trip', () => {
  const records: JsonObject[] = [
    { verdict: 'pass', cost: { loc: 12, total: 12.5 }, files: ['a.ts', 'b.ts'] },
    { text: 'naïve café — 日本語 🚀 \u2028 "quoted" \\ back\nslash', empty: '' },
    { nested: [[1, [2, [3, []]]], { deep: { deeper: [null, true, false] } }], neg: -0.001 },
    { big: 1.7976931348623157e308, tiny: 5e-324, int: 9007199254740991, zero: 0 },
    {},
  ];

  it('reads back exactly the records appended, each chained to the one before', async () => {
    const written = [];
    for (const record of records) written.push(await appendToJournal(journal, record));
    const contents = await readJournal(journal);

    expect(contents.problems).toEqual([]);
    expect(contents.intact).toBe(true);
    expect(contents.entries.map((entry) => entry.record)).toEqual(records);
    expect(contents.entries.map((entry) => entry.lineNumber)).toEqual([1, 2, 3, 4, 5]);
    expect(contents.entries.map(({ lineNumber: _, ...line }) => line)).toEqual(written);
    let prev = GENESIS_HASH;
    for (const entry of contents.entries) {
      expect(entry.prev).toBe(prev);
      expect(entry.hash).toBe(hashOf(entry.prev, entry.at, entry.record));
      prev = entry.hash;
    }
  });

  it('writes one JSON object per line in the documented shape, with the injected clock', async () => {
    const now = clock('2030-05-06T07:08:09.010Z', '2030-05-06T07:08:10.000Z');
    const first = await appendToJournal(journal, { a: 1 }, { now });
    const second = await appendToJournal(journal, { b: [2] }, { now });
    const text = await readFile(journal, 'utf8');

    expect(text).toBe(
      `${JSON.stringify({ v: 2, at: first.at, prev: GENESIS_HASH, record: { a: 1 }, hash: first.hash })}\n` +
        `${JSON.stringify({ v: 2, at: second.at, prev: first.hash, record: { b: [2] }, hash: second.hash })}\n`,
    );
    expect(first.at).toBe('2030-05-06T07:08:09.010Z');
    expect(first.hash).toBe(hashOf(GENESIS_HASH, first.at, { a: 1 }));
  });

  it('creates missing parent folders', async () => {
    const nested = join(dir, 'a', 'b', 'ledger.jsonl');
    await appendToJournal(nested, { ok: true });
    expect((await readJournal(nested)).entries).toHaveLength(1);
  });

  it('serializes concurrent appends from one process', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendToJournal(journal, { i })));
    const contents = await readJournal(journal);
    expect(contents.problems).toEqual([]);
    expect(
      contents.entries.map((entry) => entry.record.i).sort((a, b) => Number(a) - Number(b)),
    ).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});

describe('appendToJournal: what it refuses', () => {
  const notJson: [string, unknown][] = [
    ['an array', [1, 2]],
    ['null', null],
    ['a string', 'text'],
    ['a Date inside', { when: new Date(0) }],
    ['undefined inside', { a: { b: undefined } }],
    ['NaN inside', { n: Number.NaN }],
    ['Infinity inside', { list: [1, Number.POSITIVE_INFINITY] }],
    ['holes in an array', { list: new Array(3) }],
    ['a function inside', { f: () => 1 }],
    ['a bigint inside', { n: 10n }],
    ['a Map inside', { m: new Map() }],
    [
      'a class instance',
      new (class Point {
        x = 1;
      })(),
    ],
  ];

  it.each(notJson)('refuses %s, without touching the file', async (_, record) => {
    // Deliberately ill-typed: callers in plain JavaScript or with casts can still pass these.
    const append = appendToJournal as (path: string, record: unknown) => Promise<unknown>;
    await expect(append(journal, record)).rejects.toThrow(AureusError);
    await expect(readFile(journal)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a record that refers back to itself', async () => {
    const record: JsonObject = { a: 1 };
    Object.assign(record, { self: record });
    await expect(appendToJournal(journal, record)).rejects.toThrow(/refers back to itself/);
  });

  it('names the offending value', async () => {
    const append = appendToJournal as (path: string, record: unknown) => Promise<unknown>;
    await expect(append(journal, { cost: { items: [1, { when: new Date(0) }] } })).rejects.toThrow(
      'record.cost.items[1].when is not a plain object',
    );
  });

  it('refuses records over 1 MiB serialized, saying so and what to do instead', async () => {
    const error = await appendToJournal(journal, { blob: 'x'.repeat(1024 * 1024) }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AureusError);
    expect(error).toMatchObject({ message: expect.stringContaining('1 MiB') });
    expect(error).toMatchObject({ hint: expect.stringContaining('file of its own') });
    await appendToJournal(journal, { blob: 'x'.repeat(1024 * 1024 - 20) });
    expect((await readJournal(journal)).entries).toHaveLength(1);
  });

  it('refuses to append through a symlink or into a directory', async () => {
    const target = join(dir, 'elsewhere.jsonl');
    await writeFile(target, '');
    await symlink(target, journal);
    await expect(appendToJournal(journal, { a: 1 })).rejects.toThrow(/symbolic link/);
    expect(await readFile(target, 'utf8')).toBe('');

    const folder = join(dir, 'folder.jsonl');
    await mkdir(folder);
    await expect(appendToJournal(folder, { a: 1 })).rejects.toThrow(/is a directory/);
  });
});

describe('readJournal: what it reads', () => {
  it('reads a missing file as an empty, intact journal', async () => {
    expect(await readJournal(join(dir, 'none.jsonl'))).toEqual({
      entries: [],
      lineOffset: 0,
      problems: [],
      intact: true,
    });
  });

  it('refuses a directory, naming it', async () => {
    await mkdir(journal);
    const error = await readJournal(journal).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AureusError);
    expect(error).toMatchObject({ message: expect.stringContaining(`${journal} is a directory`) });
  });

  it('refuses a symlink, even to a valid journal, naming it', async () => {
    const real = join(dir, 'real.jsonl');
    await appendToJournal(real, { a: 1 });
    await symlink(real, journal);
    const error = await readJournal(journal).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AureusError);
    expect(error).toMatchObject({
      message: expect.stringContaining(`${journal} is a symbolic link`),
    });
  });

  it('ignores empty lines and Windows line endings', async () => {
    await appendRecords(2);
    const lines = await fileLines();
    await writeFile(journal, `\n${lines[0]}\r\n\n\n${lines[1]}\r\n`);
    const contents = await readJournal(journal);
    expect(contents.problems).toEqual([]);
    expect(contents.entries.map((entry) => entry.lineNumber)).toEqual([2, 5]);
  });

  it('reads a 10,000-line journal of format 1 completely', async () => {
    const lines: string[] = [];
    let prev = GENESIS_HASH;
    for (let i = 0; i < 10_000; i++) {
      const at = new Date(Date.UTC(2030, 0, 1, 0, 0, i)).toISOString();
      const record = {
        i,
        verdict: 'pass',
        cost: { loc: i % 97, total: i * 1.5 },
        pad: 'p'.repeat(200),
      };
      const hash = hashOf(prev, at, record, 1);
      lines.push(JSON.stringify({ at, prev, record, hash }));
      prev = hash;
    }
    await rewriteLines(lines);
    const contents = await readJournal(journal);
    expect(contents.problems).toEqual([]);
    expect(contents.entries).toHaveLength(10_000);
    expect(contents.entries.at(-1)?.hash).toBe(prev);
  });
});

describe('tampering is detected, and readers keep going', () => {
  beforeEach(async () => {
    await appendRecords(5);
  });

  it('an edited record: checksum problem at that line, which is skipped', async () => {
    const lines = await fileLines();
    lines[2] = (lines[2] ?? '').replace('"n":3', '"n":33');
    await rewriteLines(lines);
    const contents = await readJournal(journal);

    expect(contents.problems[0]).toEqual({
      lineNumber: 3,
      kind: 'checksum',
      message: expect.stringContaining('line 3 was edited after it was written'),
    });
    // Line 4 still names line 3's recorded hash, so the one edit is reported once.
    expect(summary(contents)).toEqual([[3, 'checksum']]);
    expect(contents.entries.map((entry) => entry.record.n)).toEqual([1, 2, 4, 5]);
    expect(contents.intact).toBe(false);
  });

  it('an edited record with its hash recomputed: chain problem at the next line', async () => {
    const lines = await fileLines();
    const original = JSON.parse(lines[2] ?? '') as { at: string; prev: string };
    const record = { n: 3, note: 'rewritten' };
    const hash = hashOf(original.prev, original.at, record, 1);
    lines[2] = JSON.stringify({ at: original.at, prev: original.prev, record, hash });
    await rewriteLines(lines);
    const contents = await readJournal(journal);

    expect(summary(contents)).toEqual([[4, 'chain']]);
    expect(contents.problems[0]?.message).toBe(
      'line 4 does not follow line 3: a line between them was deleted, reordered or rewritten',
    );
    expect(contents.entries).toHaveLength(5);
  });

  it('a deleted line: chain problem at the line after the gap', async () => {
    const lines = await fileLines();
    lines.splice(2, 1);
    await rewriteLines(lines);
    const contents = await readJournal(journal);

    expect(summary(contents)).toEqual([[3, 'chain']]);
    expect(contents.problems[0]?.message).toContain('line 3 does not follow line 2');
    expect(contents.entries.map((entry) => entry.record.n)).toEqual([1, 2, 4, 5]);
  });

  it('a deleted first line: the new first line does not follow the start', async () => {
    const lines = await fileLines();
    await rewriteLines(lines.slice(1));
    const contents = await readJournal(journal);
    expect(summary(contents)).toEqual([[1, 'chain']]);
    expect(contents.problems[0]?.message).toContain('does not follow the start of the journal');
  });

  it('two lines swapped: detected', async () => {
    const lines = await fileLines();
    const [second, third] = [lines[1] ?? '', lines[2] ?? ''];
    lines[1] = third;
    lines[2] = second;
    await rewriteLines(lines);
    const contents = await readJournal(journal);

    expect(summary(contents)).toEqual([
      [2, 'chain'],
      [3, 'chain'],
      [4, 'chain'],
    ]);
    expect(contents.entries.map((entry) => entry.record.n)).toEqual([1, 3, 2, 4, 5]);
  });

  it('garbage and lines of the wrong shape: unparseable, skipped, chain unaffected', async () => {
    const lines = await fileLines();
    lines.splice(1, 0, 'not json at all', '{"at":"x","prev":"y","hash":"z"}', '[1,2]');
    await rewriteLines(lines);
    const contents = await readJournal(journal);

    expect(summary(contents)).toEqual([
      [2, 'unparseable'],
      [3, 'unparseable'],
      [4, 'unparseable'],
    ]);
    expect(contents.entries).toHaveLength(5);
  });

  it('the pure parser gives the same answer for the same text', async () => {
    const lines = await fileLines();
    lines.splice(2, 1);
    await rewriteLines(lines);
    expect(parseJournal(await readFile(journal, 'utf8'))).toEqual(await readJournal(journal));
  });
});

describe('a torn tail (a writer killed mid-write)', () => {
  async function tearAnAppend(): Promise<string> {
    await appendRecords(3);
    // A real 4th line, cut in the middle, as a killed writer would leave it.
    const other = join(dir, 'other.jsonl');
    await appendToJournal(other, { n: 4, note: 'never finished' });
    const full = await readFile(other, 'utf8');
    const fragment = full.slice(0, Math.floor(full.length / 2));
    await appendFile(journal, fragment);
    return fragment;
  }

  it('is reported once, as torn, on the last line; the valid lines are all read', async () => {
    await tearAnAppend();
    const contents = await readJournal(journal);
    expect(summary(contents)).toEqual([[4, 'torn']]);
    expect(contents.problems[0]?.message).toContain('line 4 is incomplete');
    expect(contents.entries).toHaveLength(3);
  });

  it('the next append starts a new line and chains to the last valid line', async () => {
    const fragment = await tearAnAppend();
    const before = await readJournal(journal);
    const written = await appendToJournal(journal, { n: 5 });
    const contents = await readJournal(journal);

    expect((await readFile(journal, 'utf8')).split('\n')[3]).toBe(fragment);
    expect(summary(contents)).toEqual([[4, 'unparseable']]);
    expect(written.prev).toBe(before.entries.at(-1)?.hash);
    expect(contents.entries.map((entry) => [entry.lineNumber, entry.record.n])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [5, 5],
    ]);
    await appendToJournal(journal, { n: 6 });
    expect(summary(await readJournal(journal))).toEqual([[4, 'unparseable']]);
  });

  it('a complete last line that only lacks its newline is valid and stays intact', async () => {
    await appendRecords(2);
    const text = await readFile(journal, 'utf8');
    await writeFile(journal, text.slice(0, -1));
    expect(await readJournal(journal)).toMatchObject({ problems: [], intact: true });

    await appendToJournal(journal, { n: 3 });
    const contents = await readJournal(journal);
    expect(contents.problems).toEqual([]);
    expect(contents.entries.map((entry) => entry.record.n)).toEqual([1, 2, 3]);
  });

  it('finds the last valid line even behind more than 64 KiB of garbage', async () => {
    await appendRecords(2);
    await appendFile(journal, `${'#'.repeat(70 * 1024)}\n${'{"half":'.repeat(100)}`);
    const before = await readJournal(journal);
    const written = await appendToJournal(journal, { n: 3 });

    expect(written.prev).toBe(before.entries.at(-1)?.hash);
    const contents = await readJournal(journal);
    expect(summary(contents)).toEqual([
      [3, 'unparseable'],
      [4, 'unparseable'],
    ]);
    expect(contents.entries.map((entry) => entry.record.n)).toEqual([1, 2, 3]);
  });
});
