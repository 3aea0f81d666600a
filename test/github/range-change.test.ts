import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { readChange } from '../../src/git/read-change.js';
import { MAX_COMPARE_FILES, readRangeChange } from '../../src/github/range-change.js';
import type { Change, ChangedFile } from '../../src/model/change.js';
import { isolateGit, makeRepo, numberedLines, type Repo } from '../support/git-fixture.js';
import {
  type GitHubApiDouble,
  type Permissions,
  startGitHubApiDouble,
} from '../support/github-api-double/index.js';

const OWNER = 'octo';
/** What the App's installation token holds for reading (no merge_queues needed to read). */
const READ_ONLY: Permissions = { contents: 'read', pull_requests: 'read', metadata: 'read' };
const TOKEN = 'read-token';
/** Small enough that one file of the parity range is over it. */
const MAX_BLOB_BYTES = 4096;
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x00, 0xff]);

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

let restoreGit: () => Promise<void>;
let double: GitHubApiDouble;
let client: Octokit;
const cleanups: (() => Promise<void>)[] = [];
let repoCount = 0;

beforeAll(async () => {
  restoreGit = await isolateGit();
  double = await startGitHubApiDouble();
  double.addToken(TOKEN, READ_ONLY);
  client = new Octokit({ auth: TOKEN, baseUrl: double.url, request: { retries: 0 }, log: quiet });
});

afterEach(() => {
  double.truncatePatches = false;
  double.maxTreeEntries = 100_000;
});

afterAll(async () => {
  await double.close();
  for (const cleanup of cleanups) await cleanup();
  await restoreGit();
});

interface Range {
  readonly origin: Repo;
  readonly repo: string;
  readonly baseSha: string;
  readonly headSha: string;
}

/**
 * A merge queue's group in a real repository served by the double as octo/<name>: `main` with
 * `base` applied is the group's base; its head is a commit on top of main with `change`
 * applied (so the head descends from the base, as GitHub's merge group commits do).
 */
async function makeMergeGroup(
  base: (origin: Repo) => void,
  change: (origin: Repo) => void,
): Promise<Range> {
  const origin = await makeRepo('range-change');
  cleanups.push(origin.remove);
  base(origin);
  const baseSha = origin.commit('base');
  origin.git('checkout', '--quiet', '-b', 'gh-readonly-queue/main/pr-1');
  change(origin);
  const headSha = origin.commit('merge group');
  origin.git('checkout', '--quiet', 'main');
  repoCount += 1;
  const repo = `repo${repoCount}`;
  double.addRepository({ owner: OWNER, repo, gitDir: origin.dir, defaultBranch: 'main' });
  return { origin, repo, baseSha, headSha };
}

function readFromApi(range: Range, maxBlobBytes = MAX_BLOB_BYTES): Promise<Change> {
  const { repo, baseSha, headSha } = range;
  return readRangeChange(client, { owner: OWNER, repo, baseSha, headSha }, { maxBlobBytes });
}

function readFromGit(range: Range): Promise<Change> {
  return readChange(
    range.origin.dir,
    { kind: 'range', base: range.baseSha, head: range.headSha, threeDot: true },
    { maxBlobBytes: MAX_BLOB_BYTES },
  );
}

function withoutSimilarity(file: ChangedFile): ChangedFile {
  const { similarity: _similarity, ...rest } = file;
  return rest;
}

/** Every request valid against GitHub's description and allowed to the read-only token. */
function expectCleanRequests(): void {
  expect(double.invalidRequests()).toEqual([]);
  expect(double.forbiddenRequests()).toEqual([]);
  expect(double.unexpectedRequests()).toEqual([]);
}

/** Requests by operation, e.g. `{ 'repos/compare-commits': 1, 'git/get-tree': 2 }`. */
function requestCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of double.requests()) {
    const id = request.operationId ?? request.path;
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

function manyFiles(origin: Repo, count: number): void {
  for (let index = 0; index < count; index += 1) {
    origin.write(`many/f${String(index).padStart(4, '0')}.txt`, `${index}\n`);
  }
}

describe('readRangeChange', () => {
  it('builds the Change git builds for the same three-dot range', async () => {
    const range = await makeMergeGroup(
      (origin) => {
        origin.write('src/modify.ts', 'export const a = 1;\n');
        origin.write('src/gone.ts', 'export const gone = true;\n');
        origin.write('old/name.ts', numberedLines(20, 'line'));
        origin.write('pure/from.txt', 'moved as is\n');
        origin.write('run.sh', '#!/bin/sh\necho hi\n');
        origin.write('big.txt', 'x'.repeat(MAX_BLOB_BYTES + 1000));
      },
      (origin) => {
        origin.write('src/modify.ts', 'export const a = 2;\n');
        origin.write('src/added.ts', 'export const added = 1;\n');
        origin.git('rm', '--quiet', 'src/gone.ts', 'old/name.ts', 'pure/from.txt');
        origin.write('new/name.ts', `${numberedLines(18, 'line')}edited 1\nedited 2\n`);
        origin.write('pure/to.txt', 'moved as is\n');
        chmodSync(join(origin.dir, 'run.sh'), 0o755);
        origin.write('big.txt', 'y'.repeat(MAX_BLOB_BYTES + 2000));
        origin.write('image.bin', BINARY);
        origin.symlink('src/modify.ts', 'link');
      },
    );
    double.reset();
    const fromApi = await readFromApi(range);
    expectCleanRequests();
    const fromGit = await readFromGit(range);

    expect(fromApi.source).toBe('github');
    expect(fromApi.complete).toBe(true);
    expect(fromGit.complete).toBe(true);
    expect(fromApi.baseSha).toBe(range.baseSha); // a merge group's base is its merge base
    expect(fromApi.headSha).toBe(range.headSha);
    expect(fromApi.notes).toEqual(fromGit.notes);
    expect(fromApi.notes).toHaveLength(1); // big.txt, over the read limit
    expect(fromApi.files.map(withoutSimilarity)).toEqual(fromGit.files.map(withoutSimilarity));
    expect(fromApi.files.map((file) => `${file.status} ${file.path}`)).toEqual([
      'modified big.txt',
      'added image.bin',
      'added link',
      'renamed new/name.ts',
      'renamed pure/to.txt',
      'modified run.sh',
      'added src/added.ts',
      'deleted src/gone.ts',
      'modified src/modify.ts',
    ]);

    // One compare, the two trees, and one blob per distinct readable side; nothing else.
    const readable = fromGit.files
      .flatMap((file) => [file.base, file.head])
      .filter((version) => version?.kind === 'text' || version?.kind === 'binary')
      .map((version) => version?.blobSha);
    expect(requestCounts()).toEqual({
      'repos/compare-commits': 1,
      'git/get-tree': 2,
      'git/get-blob': new Set(readable).size,
    });
  });

  it('diffs from the merge base when the base has moved on', async () => {
    const range = await makeMergeGroup(
      (origin) => origin.write('a.txt', 'a\n'),
      (origin) => origin.write('a.txt', 'aa\n'),
    );
    const forkSha = range.baseSha;
    range.origin.write('b.txt', 'main moved on\n');
    const movedBase = range.origin.commit('main moves on');
    const moved = { ...range, baseSha: movedBase };

    const fromApi = await readFromApi(moved);
    expect(fromApi.baseSha).toBe(forkSha);
    expect(fromApi).toEqual({ ...(await readFromGit(moved)), source: 'github' });
    expect(fromApi.files.map((file) => file.path)).toEqual(['a.txt']);
    expectCleanRequests();
  });

  it('is complete with exactly 300 files, the trees showing nothing left out', async () => {
    const range = await makeMergeGroup(
      (origin) => origin.write('README.md', 'hello\n'),
      (origin) => manyFiles(origin, MAX_COMPARE_FILES),
    );
    const change = await readFromApi(range);
    expect(change.files).toHaveLength(MAX_COMPARE_FILES);
    expect(change.complete).toBe(true);
    expect(change.notes).toEqual([]);
    expectCleanRequests();
  });

  it('is incomplete when the compare stops at 300 of 301 changed files', async () => {
    const range = await makeMergeGroup(
      (origin) => origin.write('README.md', 'hello\n'),
      (origin) => {
        manyFiles(origin, MAX_COMPARE_FILES + 1);
        origin.write('README.md', 'edited\n');
      },
    );
    double.reset();
    const change = await readFromApi(range);
    expect(change.complete).toBe(false);
    expect(change.files).toHaveLength(MAX_COMPARE_FILES);
    const [cut] = change.notes;
    expect(cut).toMatch(
      /^GitHub's compare listed 300 changed files \(it stops at 300 without saying how many more changed\), but the trees show 2 more changed paths \((README\.md|many\/f\d{4}\.txt), (README\.md|many\/f\d{4}\.txt)\) that were not read; check the range on a checkout \(`aureus check --base [0-9a-f]{40} --head [0-9a-f]{40} --three-dot`\), or split it \(for a merge queue, a smaller group\)\.$/,
    );
    expect(requestCounts()['repos/compare-commits']).toBe(1);
    expectCleanRequests();
  });

  it('is incomplete at 300 files when a truncated tree cannot show the rest', async () => {
    const range = await makeMergeGroup(
      (origin) => origin.write('README.md', 'hello\n'),
      (origin) => manyFiles(origin, MAX_COMPARE_FILES),
    );
    // The base tree (README.md alone) is whole; the head tree is cut.
    double.maxTreeEntries = MAX_COMPARE_FILES;
    const change = await readFromApi(range);
    expect(change.complete).toBe(false);
    expect(change.notes[0]).toBe(
      `GitHub's compare listed 300 changed files, the most it lists (it stops at 300 without saying how many more changed), and a truncated tree cannot show what it left out, so changed files may not have been read; check the range on a checkout (\`aureus check --base ${range.baseSha} --head ${range.headSha} --three-dot\`), or split it (for a merge queue, a smaller group).`,
    );
    expectCleanRequests();
  });

  it('trusts a listing under 300 files when a tree is truncated', async () => {
    const range = await makeMergeGroup(
      (origin) => {
        origin.write('a.txt', 'a\n');
        origin.write('y.txt', 'y\n');
        origin.write('z.txt', 'z\n');
      },
      (origin) => origin.write('a.txt', 'aa\n'),
    );
    double.maxTreeEntries = 1;
    const change = await readFromApi(range);
    expect(change.complete).toBe(true);
    expect(change.files[0]?.head?.text).toBe('aa\n');
    expect(change.notes).toHaveLength(2); // one per truncated tree, as information
  });

  it('is incomplete when a blob cannot be read, and throws other API errors', async () => {
    const range = await makeMergeGroup(
      (origin) => origin.write('a.txt', 'a\n'),
      (origin) => origin.write('a.txt', 'b\n'),
    );
    double.failNext('git/get-blob', { status: 404 });
    const change = await readFromApi(range);
    expect(change.complete).toBe(false);
    expect(change.notes).toHaveLength(1);
    expect(change.notes[0]).toMatch(/^a\.txt could not be read: GitHub answered 404 for blob /);

    double.failNext('repos/compare-commits', { status: 500 });
    await expect(readFromApi(range)).rejects.toMatchObject({ status: 500 });
  });
});
