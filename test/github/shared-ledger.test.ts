import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { appendToSharedLedger, sharedLedgerLine } from '../../src/github/shared-ledger.js';
import { GENESIS_HASH } from '../../src/memory/journal-format.js';
import {
  parseSharedLedgerFiles,
  readSharedLedgerTip,
  SHARED_LEDGER_TIP,
} from '../../src/memory/shared-ledger-entries.js';
import { AureusError } from '../../src/model/errors.js';
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
  client = new Octokit({ auth: TOKEN, baseUrl: double.url, request: { retries: 0 }, log: quiet });
});

afterAll(() => double.close());

/** A repository of its own per test, served by the double from memory. */
function newRepository(): { owner: string; repo: string } {
  repoCount += 1;
  const repository = { owner: OWNER, repo: `ledger-${repoCount}` };
  double.addRepository(repository);
  return repository;
}

const head = (n: number) => n.toString(16).padStart(40, '0');

function append(repository: { owner: string; repo: string }, n: number) {
  return appendToSharedLedger(client, repository, {
    headSha: head(n),
    at: `2026-04-0${n}T00:00:00.000Z`,
    record: { kind: 'check', head: head(n), verdict: 'pass' },
  });
}

/** The branch's entries for these heads and its tip, as `aureus ledger verify --shared` reads them. */
function ledgerOf(repository: { owner: string; repo: string }, heads: readonly number[]) {
  const read = (path: string) =>
    double.fileAt(repository.owner, repository.repo, 'aureus-ledger', path)?.toString('utf8');
  const paths = [...heads.map((n) => `entries/${head(n)}.json`), SHARED_LEDGER_TIP];
  const files = paths.flatMap((path) => {
    const text = read(path);
    return text === undefined ? [] : [{ path, text }];
  });
  return { files, contents: parseSharedLedgerFiles(files) };
}

/** An `aureus-ledger` branch as the ledger written before chaining left it: entries and no tip. */
async function seedBranch(
  repository: { owner: string; repo: string },
  files: Record<string, string>,
): Promise<void> {
  const tree = await client.rest.git.createTree({
    ...repository,
    tree: Object.entries(files).map(([path, content]) => ({
      path,
      mode: '100644' as const,
      type: 'blob' as const,
      content,
    })),
  });
  const commit = await client.rest.git.createCommit({
    ...repository,
    message: 'ledger',
    tree: tree.data.sha,
    parents: [],
  });
  await client.rest.git.createRef({
    ...repository,
    ref: 'refs/heads/aureus-ledger',
    sha: commit.data.sha,
  });
}

describe('appendToSharedLedger', () => {
  it('links each entry to the one before it and names the newest in tip.json', async () => {
    const repository = newRepository();
    for (const n of [1, 2, 3]) expect(await append(repository, n)).toBe('written');
    const { files, contents } = ledgerOf(repository, [1, 2, 3]);
    expect(contents).toMatchObject({ intact: true, problems: [], unchained: 0 });
    expect(contents.entries.map((entry) => entry.record.head)).toEqual([1, 2, 3].map(head));
    const [first, second, third] = contents.entries;
    expect([first?.prev, second?.prev, third?.prev]).toEqual([
      GENESIS_HASH,
      first?.hash,
      second?.hash,
    ]);
    const tip = readSharedLedgerTip(
      files.find((file) => file.path === SHARED_LEDGER_TIP)?.text ?? '',
    );
    // `since` is the oldest entry's time, carried forward: when a compaction is due.
    expect(tip).toEqual({
      entry: `entries/${head(3)}.json`,
      hash: third?.hash,
      since: '2026-04-01T00:00:00.000Z',
    });
    expect(double.invalidRequests()).toEqual([]);
  });

  it('keeps one chain when another run lands first: the one that loses links after it', async () => {
    const repository = newRepository();
    await append(repository, 1);
    // This run reads the branch, then another run's entry lands before it moves the branch.
    const racing = new Octokit({
      auth: TOKEN,
      baseUrl: double.url,
      request: { retries: 0 },
      log: quiet,
    });
    let overtaken = false;
    racing.hook.before('request', async (options) => {
      if (overtaken || options.url !== '/repos/{owner}/{repo}/git/commits') return;
      overtaken = true;
      expect(await append(repository, 2)).toBe('written');
    });
    double.reset();
    const result = await appendToSharedLedger(racing, repository, {
      headSha: head(3),
      at: '2026-04-03T00:00:00.000Z',
      record: { kind: 'check', head: head(3), verdict: 'pass' },
    });
    expect(result).toBe('written');
    const updates = double.callsTo('git/update-ref').map((request) => request.status);
    expect(updates).toEqual([200, 422, 200]);
    const { contents } = ledgerOf(repository, [1, 2, 3]);
    expect(contents).toMatchObject({ intact: true, problems: [], unchained: 0 });
    const [first, second, third] = contents.entries;
    expect([second?.prev, third?.prev]).toEqual([first?.hash, second?.hash]);
  });

  it('keeps one chain when several runs append at once', async () => {
    const repository = newRepository();
    const results = await Promise.all([1, 2, 3].map((n) => append(repository, n)));
    expect(results).toEqual(['written', 'written', 'written']);
    const { contents } = ledgerOf(repository, [1, 2, 3]);
    expect(contents).toMatchObject({ intact: true, problems: [], unchained: 0 });
    expect(contents.entries).toHaveLength(3);
  });

  it('writes nothing when the entry of the head is already there', async () => {
    const repository = newRepository();
    await append(repository, 1);
    double.reset();
    expect(await append(repository, 1)).toBe('present');
    expect(double.requests().filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('continues a ledger written before entries were chained; its entries read as unchained', async () => {
    const repository = newRepository();
    const legacy = sharedLedgerLine(
      {
        headSha: head(1),
        at: '2026-04-01T00:00:00.000Z',
        record: { kind: 'check', head: head(1) },
      },
      GENESIS_HASH,
    );
    await seedBranch(repository, { [`entries/${head(1)}.json`]: legacy.text });
    expect(await append(repository, 2)).toBe('written');
    expect(await append(repository, 3)).toBe('written');
    const { contents } = ledgerOf(repository, [1, 2, 3]);
    expect(contents).toMatchObject({ intact: true, problems: [], unchained: 1 });
  });

  it('refuses to link after a tip.json that does not read, rather than start a second chain', async () => {
    const repository = newRepository();
    await seedBranch(repository, { [SHARED_LEDGER_TIP]: 'edited by hand\n' });
    await expect(append(repository, 1)).rejects.toThrow(AureusError);
    await expect(append(repository, 1)).rejects.toThrow(
      /tip\.json on branch aureus-ledger is damaged/,
    );
  });
});
