import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { appendToSharedLedger } from '../../src/github/shared-ledger.js';
import { compactSharedLedger } from '../../src/github/shared-ledger-compaction.js';
import { formatLine, GENESIS_HASH } from '../../src/memory/journal-format.js';
import {
  type LedgerEntryFile,
  parseSharedLedgerFiles,
  readSharedLedgerTip,
  SHARED_LEDGER_SUMMARY,
  SHARED_LEDGER_TIP,
} from '../../src/memory/shared-ledger-entries.js';
import type { JsonObject } from '../../src/model/json.js';
import { type GitHubApiDouble, startGitHubApiDouble } from '../support/github-api-double/index.js';

const OWNER = 'octo';
const TOKEN = 'push-token';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let double: GitHubApiDouble;
let client: Octokit;
let repoCount = 0;

beforeAll(async () => {
  double = await startGitHubApiDouble();
  double.addToken(TOKEN, { contents: 'write', metadata: 'read' });
  client = newClient();
});

afterAll(() => double.close());

function newClient(): Octokit {
  return new Octokit({ auth: TOKEN, baseUrl: double.url, request: { retries: 0 }, log: quiet });
}

type Repository = { owner: string; repo: string };

function newRepository(): Repository {
  repoCount += 1;
  const repository = { owner: OWNER, repo: `compaction-${repoCount}` };
  double.addRepository(repository);
  return repository;
}

const head = (n: number) => n.toString(16).padStart(40, '0');
const day = (n: number) => `2026-04-${String(n).padStart(2, '0')}T00:00:00.000Z`;

/** Entry n, checked on April n; the third one let a policy loosening through. */
function append(repository: Repository, n: number, on: Octokit = client) {
  const approval: JsonObject =
    n === 3 ? { policyApproval: { by: 'ada', reason: 'we need the room', pullRequest: 41 } } : {};
  return appendToSharedLedger(on, repository, {
    headSha: head(n),
    at: day(n),
    record: {
      kind: 'check',
      head: head(n),
      verdict: n % 2 === 0 ? 'warn' : 'pass',
      cost: { total: n },
      ...approval,
    },
  });
}

/** The branch's tree as `aureus ledger verify --shared` reads it: summary, entries and tip. */
async function branchFiles(repository: Repository): Promise<LedgerEntryFile[]> {
  const { data } = await client.rest.git.getTree({
    ...repository,
    tree_sha: 'aureus-ledger',
    recursive: '1',
  });
  return data.tree.flatMap((item) => {
    const path = item.path ?? '';
    const text = double.fileAt(repository.owner, repository.repo, 'aureus-ledger', path);
    return item.type === 'blob' && text !== undefined
      ? [{ path, text: text.toString('utf8') }]
      : [];
  });
}

async function contentsOf(repository: Repository) {
  return parseSharedLedgerFiles(await branchFiles(repository));
}

/** Replaces one file of the branch, as someone with push access could. */
async function rewriteFile(repository: Repository, path: string, content: string): Promise<void> {
  const parent = double.ref(repository.owner, repository.repo, 'refs/heads/aureus-ledger') ?? '';
  const { data: commit } = await client.rest.git.getCommit({ ...repository, commit_sha: parent });
  const tree = await client.rest.git.createTree({
    ...repository,
    base_tree: commit.tree.sha,
    tree: [{ path, mode: '100644', type: 'blob', content }],
  });
  const next = await client.rest.git.createCommit({
    ...repository,
    message: 'edit',
    tree: tree.data.sha,
    parents: [parent],
  });
  await client.rest.git.updateRef({
    ...repository,
    ref: 'heads/aureus-ledger',
    sha: next.data.sha,
  });
}

/** Six entries, April 1 to 6; on April 6 at noon, two days kept: April 1 to 4 are replaced. */
async function sixDays(): Promise<Repository> {
  const repository = newRepository();
  for (const n of [1, 2, 3, 4, 5, 6]) await append(repository, n);
  return repository;
}

const APRIL_6_NOON = new Date('2026-04-06T12:00:00.000Z');

describe('compactSharedLedger', () => {
  it('replaces the entries older than the retention by one summary, and the ledger still verifies', async () => {
    const repository = await sixDays();
    const before = await contentsOf(repository);
    double.reset();
    const result = await compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON });
    expect(result).toEqual({ status: 'compacted', replaced: 4, kept: 2, more: false });
    // ref, tip, commit, tree listing, 7 files, then tree, commit and the ref's move.
    expect(double.requests()).toHaveLength(14);

    const files = await branchFiles(repository);
    expect(files.map((file) => file.path).sort()).toEqual([
      `entries/${head(5)}.json`,
      `entries/${head(6)}.json`,
      SHARED_LEDGER_SUMMARY,
      SHARED_LEDGER_TIP,
    ]);
    const after = parseSharedLedgerFiles(files);
    expect(after).toMatchObject({ intact: true, problems: [], unchained: 0 });
    // The kept entries are the same lines, byte for byte.
    expect(after.entries.slice(1).map((entry) => entry.hash)).toEqual(
      before.entries.slice(4).map((entry) => entry.hash),
    );
    expect(after.entries[0]?.record).toMatchObject({
      kind: 'compaction',
      replaced: {
        entries: 4,
        from: day(1),
        to: day(4),
        tail: before.entries[3]?.hash,
        kinds: { check: 4 },
        verdicts: { pass: 2, warn: 2 },
        costTotal: 10,
        letThrough: [
          {
            at: day(3),
            head: head(3),
            policyApproval: { by: 'ada', reason: 'we need the room', pullRequest: 41 },
          },
        ],
      },
    });
    const tip = readSharedLedgerTip(
      files.find((file) => file.path === SHARED_LEDGER_TIP)?.text ?? '',
    );
    expect(tip).toEqual({
      entry: `entries/${head(6)}.json`,
      hash: before.entries[5]?.hash,
      since: day(5),
    });
  });

  it('carries an earlier summary into the next one, and appends go on linking after it', async () => {
    const repository = await sixDays();
    await compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON });
    expect(await append(repository, 7)).toBe('written');
    // Not yet a day past the retention for April 5, the oldest kept entry: nothing is read.
    double.reset();
    const early = await compactSharedLedger(client, repository, {
      days: 2,
      now: new Date('2026-04-07T12:00:00.000Z'),
    });
    expect(early).toEqual({ status: 'not-due' });
    expect(double.requests()).toHaveLength(2);

    const later = await compactSharedLedger(client, repository, {
      days: 2,
      now: new Date('2026-04-09T00:00:00.000Z'),
    });
    expect(later).toEqual({ status: 'compacted', replaced: 2, kept: 1, more: false });
    const after = await contentsOf(repository);
    expect(after).toMatchObject({ intact: true, problems: [] });
    expect(after.entries.map((entry) => entry.record.kind ?? '')).toEqual(['compaction', 'check']);
    expect(after.entries[0]?.record).toMatchObject({
      replaced: { entries: 6, from: day(1), to: day(6), costTotal: 21 },
    });
    expect(await append(repository, 8)).toBe('written');
    expect(await contentsOf(repository)).toMatchObject({ intact: true, problems: [] });
  });

  it('fails verification when the summary is edited, or rewritten with its hash recomputed', async () => {
    const repository = await sixDays();
    await compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON });
    const summary =
      double
        .fileAt(OWNER, repository.repo, 'aureus-ledger', SHARED_LEDGER_SUMMARY)
        ?.toString('utf8') ?? '';

    await rewriteFile(
      repository,
      SHARED_LEDGER_SUMMARY,
      summary.replace('"costTotal":10', '"costTotal":1'),
    );
    const edited = await contentsOf(repository);
    expect(edited.intact).toBe(false);
    expect(edited.problems).toContainEqual(
      expect.objectContaining({
        kind: 'checksum',
        message: `${SHARED_LEDGER_SUMMARY} was edited: its checksum does not match`,
      }),
    );

    // A forged summary that verifies on its own no longer names the entry the kept ones follow.
    const forged = formatLine(
      GENESIS_HASH,
      day(4),
      JSON.stringify({
        kind: 'compaction',
        replaced: { lines: 4, entries: 4, tail: 'f'.repeat(64) },
      }),
    );
    await rewriteFile(repository, SHARED_LEDGER_SUMMARY, `${forged.text}\n`);
    const rewritten = await contentsOf(repository);
    expect(rewritten.intact).toBe(false);
    expect(rewritten.problems.map((problem) => problem.kind)).toContain('chain');
  });

  it('keeps an entry appended while it compacts: the ref only moves forward, so the compaction is dropped', async () => {
    const repository = await sixDays();
    const racing = newClient();
    let overtaken = false;
    racing.hook.before('request', async (options) => {
      if (overtaken || options.method !== 'PATCH') return;
      overtaken = true;
      expect(await append(repository, 7)).toBe('written');
    });
    double.reset();
    const result = await compactSharedLedger(racing, repository, { days: 2, now: APRIL_6_NOON });
    expect(result).toEqual({ status: 'moved' });
    expect(double.callsTo('git/update-ref').map((request) => request.status)).toEqual([200, 422]);
    const after = await contentsOf(repository);
    expect(after).toMatchObject({ intact: true, problems: [] });
    expect(after.entries.map((entry) => entry.record.head)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map(head),
    );

    // The next run compacts, and the entry that won the race is kept.
    const next = await compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON });
    expect(next).toEqual({ status: 'compacted', replaced: 4, kept: 3, more: false });
    const compacted = await contentsOf(repository);
    expect(compacted).toMatchObject({ intact: true, problems: [] });
    expect(compacted.entries.map((entry) => entry.record.head ?? 'summary')).toEqual([
      'summary',
      head(5),
      head(6),
      head(7),
    ]);
  });

  it('leaves a ledger that does not verify as it was, and says why', async () => {
    const repository = await sixDays();
    const path = `entries/${head(2)}.json`;
    const text =
      double.fileAt(OWNER, repository.repo, 'aureus-ledger', path)?.toString('utf8') ?? '';
    await rewriteFile(repository, path, text.replace('"verdict":"warn"', '"verdict":"pass"'));
    const tipBefore = double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger');
    const result = await compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON });
    expect(result).toEqual({
      status: 'refused',
      why: `it does not verify (${path} was edited: its checksum does not match)`,
    });
    expect(double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger')).toBe(tipBefore);
  });

  it('leaves the branch as it was when a request fails half way', async () => {
    const repository = await sixDays();
    const tipBefore = double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger');
    double.failNext('git/create-commit', { status: 500 });
    await expect(
      compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON }),
    ).rejects.toThrow();
    expect(double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger')).toBe(tipBefore);
    expect(await contentsOf(repository)).toMatchObject({ intact: true, problems: [] });
  });

  it('reads nothing past the limit: a tree the API truncates is left as it is', async () => {
    const repository = await sixDays();
    const limit = double.maxTreeEntries;
    double.maxTreeEntries = 3;
    try {
      const result = await compactSharedLedger(client, repository, { days: 2, now: APRIL_6_NOON });
      expect(result).toEqual({
        status: 'refused',
        why: 'its tree is too large for the API to list in one answer',
      });
    } finally {
      double.maxTreeEntries = limit;
    }
  });
});
