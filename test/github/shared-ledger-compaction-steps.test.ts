import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { appendToSharedLedger, sharedLedgerLine } from '../../src/github/shared-ledger.js';
import {
  compactSharedLedger,
  MAX_COMPACTION_READS,
} from '../../src/github/shared-ledger-compaction.js';
import { GENESIS_HASH } from '../../src/memory/journal-format.js';
import {
  type LedgerEntryFile,
  parseSharedLedgerFiles,
  SHARED_LEDGER_SUMMARY,
  SHARED_LEDGER_TIP,
  sharedLedgerTip,
} from '../../src/memory/shared-ledger-entries.js';
import { isolateGit, makeRepo, runGit } from '../support/git-fixture.js';
import { type GitHubApiDouble, startGitHubApiDouble } from '../support/github-api-double/index.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

const OWNER = 'octo';
const TOKEN = 'push-token';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
/** Big enough that it takes three runs at MAX_COMPACTION_READS files each. */
const ENTRIES = 1_200;

let double: GitHubApiDouble;
let client: Octokit;
let repoCount = 0;
let restoreGit: () => Promise<void>;

beforeAll(async () => {
  restoreGit = await isolateGit();
  double = await startGitHubApiDouble();
  double.addToken(TOKEN, { contents: 'write', metadata: 'read' });
  client = new Octokit({ auth: TOKEN, baseUrl: double.url, request: { retries: 0 }, log: quiet });
});

afterAll(async () => {
  await double.close();
  await restoreGit();
});

type Repository = { owner: string; repo: string };

const head = (n: number) => n.toString(16).padStart(40, '0');
const START = Date.parse('2026-01-01T00:00:00.000Z');
/** Entry n was checked n hours after the start of 2026. */
const at = (n: number) => new Date(START + n * 60 * 60 * 1000).toISOString();
/** Three days after the newest entry: with two days kept, every entry but the newest is due. */
const LATER = new Date(START + (ENTRIES + 72) * 60 * 60 * 1000);

/**
 * A shared ledger of `count` entries, each one commit that writes its file and the tip, with the
 * message, tree and chain appendToSharedLedger gives them: two requests an entry instead of the
 * seven an append makes, so the ledger is built in seconds.
 */
async function seededLedger(count: number): Promise<Repository> {
  repoCount += 1;
  const repository = { owner: OWNER, repo: `steps-${repoCount}` };
  double.addRepository(repository);
  let parent: string | null = null;
  let tree: string | undefined;
  let prev = GENESIS_HASH;
  for (let n = 1; n <= count; n++) {
    const path = `entries/${head(n)}.json`;
    const record = { kind: 'check', head: head(n), verdict: n % 3 === 0 ? 'warn' : 'pass' };
    const line = sharedLedgerLine(
      { headSha: head(n), at: at(n), record: { ...record, cost: { total: n } } },
      prev,
    );
    const created = await client.rest.git.createTree({
      ...repository,
      ...(tree === undefined ? {} : { base_tree: tree }),
      tree: [
        { path, mode: '100644', type: 'blob', content: line.text },
        {
          path: SHARED_LEDGER_TIP,
          mode: '100644',
          type: 'blob',
          content: sharedLedgerTip(path, line.hash, at(1)),
        },
      ],
    });
    tree = created.data.sha;
    const parents: string[] = parent === null ? [] : [parent];
    const commit = await client.rest.git.createCommit({
      ...repository,
      message: `aureus: ledger entry for ${head(n)}`,
      tree,
      parents,
    });
    parent = commit.data.sha;
    prev = line.hash;
  }
  await client.rest.git.createRef({
    ...repository,
    ref: 'refs/heads/aureus-ledger',
    sha: parent ?? '',
  });
  return repository;
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

/**
 * `aureus ledger verify --shared` in a clone of a real repository whose `aureus-ledger` branch
 * holds `files`, as the CLI reads the branch the Action wrote.
 */
async function verifiedByCli(files: readonly LedgerEntryFile[]) {
  const origin = await makeRepo('steps-origin');
  const clones = await makeTempDir('steps-clones');
  try {
    origin.write('README.md', 'code\n');
    origin.commit('code');
    origin.git('checkout', '--quiet', '--orphan', 'aureus-ledger');
    origin.git('rm', '-rf', '--quiet', '--ignore-unmatch', '.');
    for (const file of files) origin.write(file.path, file.text);
    origin.commit('ledger');
    origin.git('checkout', '--quiet', 'main');
    runGit(clones.path, ['clone', '--quiet', origin.dir, 'clone']);
    return await runCliInProcess(['ledger', 'verify', '--shared'], `${clones.path}/clone`);
  } finally {
    await clones.remove();
    await origin.remove();
  }
}

function summaryOf(contents: Awaited<ReturnType<typeof contentsOf>>) {
  const first = contents.entries[0];
  return first?.record.kind === 'compaction' ? first.record : undefined;
}

const sum = (from: number, to: number) => ((from + to) * (to - from + 1)) / 2;

describe('compactSharedLedger on a ledger longer than one run reads', () => {
  it('compacts 1,200 entries in three runs, oldest first, each leaving a ledger that verifies', async () => {
    const repository = await seededLedger(ENTRIES);
    const before = await contentsOf(repository);
    expect(before).toMatchObject({ intact: true, problems: [] });
    expect(before.entries).toHaveLength(ENTRIES);

    // Run 1: no summary yet, the 500 oldest entries read; the newest of them is kept.
    double.reset();
    const first = await compactSharedLedger(client, repository, { days: 2, now: LATER });
    const replacedFirst = MAX_COMPACTION_READS - 1;
    expect(first).toEqual({
      status: 'compacted',
      replaced: replacedFirst,
      kept: ENTRIES - replacedFirst,
      more: true,
    });
    // ref, tip, commit, tree listing, 12 pages of history, 500 files, tree, commit, ref's move.
    expect(double.callsTo('repos/list-commits')).toHaveLength(ENTRIES / 100);
    expect(double.callsTo('git/get-blob')).toHaveLength(MAX_COMPACTION_READS);
    expect(double.requests().length).toBeLessThanOrEqual(MAX_COMPACTION_READS + 25);
    const afterFirst = await contentsOf(repository);
    expect(afterFirst).toMatchObject({ intact: true, problems: [], unchained: 0 });
    expect(summaryOf(afterFirst)).toMatchObject({
      replaced: {
        entries: replacedFirst,
        lines: replacedFirst,
        from: at(1),
        to: at(replacedFirst),
        costTotal: sum(1, replacedFirst),
      },
    });
    const midway = await verifiedByCli(await branchFiles(repository));
    expect(midway.stdout).toMatch(/every checksum and link verified/);
    expect(midway.code).toBe(0);
    // Entries keep their numbers and their bytes.
    expect(afterFirst.entries.slice(1).map((entry) => [entry.lineNumber, entry.hash])).toEqual(
      before.entries.slice(replacedFirst).map((entry) => [entry.lineNumber, entry.hash]),
    );

    // Run 2: the summary and the next 499 oldest entries; again the newest read is kept.
    const second = await compactSharedLedger(client, repository, { days: 2, now: LATER });
    const replacedSecond = MAX_COMPACTION_READS - 2;
    expect(second).toEqual({
      status: 'compacted',
      replaced: replacedSecond,
      kept: ENTRIES - replacedFirst - replacedSecond,
      more: true,
    });
    const afterSecond = await contentsOf(repository);
    expect(afterSecond).toMatchObject({ intact: true, problems: [] });
    expect(summaryOf(afterSecond)).toMatchObject({
      replaced: {
        entries: replacedFirst + replacedSecond,
        from: at(1),
        costTotal: sum(1, replacedFirst + replacedSecond),
      },
    });

    // Run 3: what is left fits one read, so the whole ledger is read and verified.
    const third = await compactSharedLedger(client, repository, { days: 2, now: LATER });
    expect(third).toEqual({
      status: 'compacted',
      replaced: ENTRIES - 1 - replacedFirst - replacedSecond,
      kept: 1,
      more: false,
    });
    const after = await contentsOf(repository);
    expect(after).toMatchObject({ intact: true, problems: [], unchained: 0 });
    expect(after.entries.map((entry) => entry.record.kind)).toEqual(['compaction', 'check']);
    const summary = summaryOf(after);
    // The counts add up: the summary stands for every entry but the newest, whose number holds.
    expect(summary).toMatchObject({
      replaced: {
        entries: ENTRIES - 1,
        lines: ENTRIES - 1,
        from: at(1),
        to: at(ENTRIES - 1),
        tail: before.entries[ENTRIES - 2]?.hash,
        costTotal: sum(1, ENTRIES - 1),
        kinds: { check: ENTRIES - 1 },
        verdicts: {
          warn: Math.floor((ENTRIES - 1) / 3),
          pass: ENTRIES - 1 - Math.floor((ENTRIES - 1) / 3),
        },
      },
    });
    expect(after.entries[1]).toMatchObject({
      lineNumber: ENTRIES,
      hash: before.entries[ENTRIES - 1]?.hash,
    });
    expect((await branchFiles(repository)).map((file) => file.path).sort()).toEqual([
      `entries/${head(ENTRIES)}.json`,
      SHARED_LEDGER_SUMMARY,
      SHARED_LEDGER_TIP,
    ]);

    const verified = await verifiedByCli(await branchFiles(repository));
    expect(verified.stdout).toMatch(/every checksum and link verified/);
    expect(verified.code).toBe(0);

    // Appends go on linking after the compacted ledger.
    const next = {
      headSha: head(ENTRIES + 1),
      at: LATER.toISOString(),
      record: { kind: 'check', head: head(ENTRIES + 1) },
    };
    expect(await appendToSharedLedger(client, repository, next)).toBe('written');
    expect(await contentsOf(repository)).toMatchObject({ intact: true, problems: [] });
    expect(double.invalidRequests()).toEqual([]);
    expect(double.responseViolations()).toEqual([]);
  });

  it('leaves the branch as it was when a step fails half way, and the next run takes the step', async () => {
    const repository = await seededLedger(MAX_COMPACTION_READS + 100);
    const tipBefore = double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger');
    double.failNext('git/update-ref', { status: 500 });
    await expect(
      compactSharedLedger(client, repository, { days: 2, now: LATER }),
    ).rejects.toThrow();
    expect(double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger')).toBe(tipBefore);
    expect(await contentsOf(repository)).toMatchObject({ intact: true, problems: [] });

    const retried = await compactSharedLedger(client, repository, { days: 2, now: LATER });
    expect(retried).toMatchObject({ status: 'compacted', replaced: MAX_COMPACTION_READS - 1 });
    expect(await contentsOf(repository)).toMatchObject({ intact: true, problems: [] });
  });

  it('compacts nothing when an entry file was written by no append, since its place is unknown', async () => {
    const repository = await seededLedger(MAX_COMPACTION_READS + 10);
    const parent = double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger') ?? '';
    const { data: commit } = await client.rest.git.getCommit({ ...repository, commit_sha: parent });
    const stray = sharedLedgerLine(
      { headSha: head(9_999), at: at(0), record: { kind: 'check', head: head(9_999) } },
      GENESIS_HASH,
    );
    const tree = await client.rest.git.createTree({
      ...repository,
      base_tree: commit.tree.sha,
      tree: [
        { path: `entries/${head(9_999)}.json`, mode: '100644', type: 'blob', content: stray.text },
      ],
    });
    const edit = await client.rest.git.createCommit({
      ...repository,
      message: 'edit',
      tree: tree.data.sha,
      parents: [parent],
    });
    await client.rest.git.updateRef({
      ...repository,
      ref: 'heads/aureus-ledger',
      sha: edit.data.sha,
    });

    const result = await compactSharedLedger(client, repository, { days: 2, now: LATER });
    expect(result).toEqual({
      status: 'refused',
      why: `1 of its ${MAX_COMPACTION_READS + 11} entries were written by no append commit of its history, so their place in the chain is unknown`,
    });
    expect(double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger')).toBe(edit.data.sha);
  });

  it('compacts nothing when the oldest entries it reads do not verify', async () => {
    const repository = await seededLedger(MAX_COMPACTION_READS + 10);
    const path = `entries/${head(7)}.json`;
    const text =
      double.fileAt(OWNER, repository.repo, 'aureus-ledger', path)?.toString('utf8') ?? '';
    const parent = double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger') ?? '';
    const { data: commit } = await client.rest.git.getCommit({ ...repository, commit_sha: parent });
    const tree = await client.rest.git.createTree({
      ...repository,
      base_tree: commit.tree.sha,
      tree: [{ path, mode: '100644', type: 'blob', content: text.replace('"pass"', '"warn"') }],
    });
    // The append that wrote the file still places it in the history.
    const edit = await client.rest.git.createCommit({
      ...repository,
      message: 'edit',
      tree: tree.data.sha,
      parents: [parent],
    });
    await client.rest.git.updateRef({
      ...repository,
      ref: 'heads/aureus-ledger',
      sha: edit.data.sha,
    });

    const result = await compactSharedLedger(client, repository, { days: 2, now: LATER });
    // Both the edit and the link it broke are problems; the first in the listing is named.
    expect(result).toEqual({
      status: 'refused',
      why: expect.stringMatching(
        new RegExp(`^the ${MAX_COMPACTION_READS} oldest of its files do not verify \\(entries/`),
      ),
    });
    expect(double.ref(OWNER, repository.repo, 'refs/heads/aureus-ledger')).toBe(edit.data.sha);
  });
});
