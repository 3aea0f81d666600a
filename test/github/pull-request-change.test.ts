import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { readChange } from '../../src/git/read-change.js';
import type { ApiTree } from '../../src/github/api-trees.js';
import { readPullRequestChange } from '../../src/github/pull-request-change.js';
import type { ListedFile } from '../../src/github/pull-request-files.js';
import { planFiles } from '../../src/github/pull-request-plan.js';
import type { Change, ChangedFile } from '../../src/model/change.js';
import { lockfile } from '../pricing/npm-fixtures.js';
import { isolateGit, makeRepo, numberedLines, type Repo } from '../support/git-fixture.js';
import {
  type GitHubApiDouble,
  type Permissions,
  startGitHubApiDouble,
} from '../support/github-api-double/index.js';
import { packagesOf } from '../support/large-files.js';

const OWNER = 'octo';
/** The least a token needs to read a pull request's change. */
const READ_ONLY: Permissions = { contents: 'read', pull_requests: 'read', metadata: 'read' };
const TOKEN = 'read-token';
/** Small enough that one file of the parity PR is over it. */
const MAX_BLOB_BYTES = 4096;

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

interface PullRequest {
  readonly origin: Repo;
  readonly repo: string;
  readonly baseSha: string;
  readonly headSha: string;
}

/**
 * A real repository served by the double as octo/<name>: `main` with `base` applied, `feature`
 * forked from it with `change` applied, and main moved on afterwards (so the merge base is
 * not the base tip), and pull request #1 from feature into main.
 */
async function makePullRequest(
  base: (origin: Repo) => void,
  change: (origin: Repo) => void,
): Promise<PullRequest> {
  const origin = await makeRepo('pr-change');
  cleanups.push(origin.remove);
  base(origin);
  origin.commit('base');
  origin.git('checkout', '--quiet', '-b', 'feature');
  change(origin);
  const headSha = origin.commit('feature');
  origin.git('checkout', '--quiet', 'main');
  origin.write('later-on-main.txt', 'main moved on\n');
  const baseSha = origin.commit('main moves on');
  origin.git('checkout', '--quiet', 'feature');
  repoCount += 1;
  const repo = `repo${repoCount}`;
  double.addRepository({ owner: OWNER, repo, gitDir: origin.dir, defaultBranch: 'main' });
  double.addPullRequest({ owner: OWNER, repo, number: 1, baseSha, headSha });
  return { origin, repo, baseSha, headSha };
}

function readFromApi(pull: PullRequest, maxBlobBytes = MAX_BLOB_BYTES): Promise<Change> {
  return readPullRequestChange(
    client,
    { owner: OWNER, repo: pull.repo, number: 1 },
    {
      maxBlobBytes,
    },
  );
}

function readFromGit(pull: PullRequest): Promise<Change> {
  return readChange(
    pull.origin.dir,
    { kind: 'range', base: pull.baseSha, head: pull.headSha, threeDot: true },
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

function blobRequests(): string[] {
  return double.callsTo('git/get-blob').map((request) => request.path.split('/').at(-1) ?? '');
}

const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x00, 0xff]);

describe('planFiles', () => {
  // The double cannot serve a file turned into a symlink (its patch splitter sees two files
  // where `git diff --raw` sees one T), so git's M/T rule is checked on the plan directly.
  const tree = (mode: string): ApiTree => ({
    entries: new Map([['p', { mode, type: 'blob', sha: 'a'.repeat(40), size: 1 }]]),
    truncated: false,
  });
  const listed = (status: string): ListedFile => ({
    status,
    filename: 'p',
    sha: null,
    additions: 1,
    deletions: 1,
    hasPatch: true,
  });

  it('calls a change of kind type-changed and an executable bit modified, as git does', () => {
    const statusOf = (status: string, from: string, to: string) =>
      planFiles([listed(status)], tree(from), tree(to)).files[0]?.status;
    expect(statusOf('changed', '100644', '120000')).toBe('type-changed');
    expect(statusOf('modified', '120000', '100644')).toBe('type-changed');
    expect(statusOf('changed', '100644', '100755')).toBe('modified');
    expect(statusOf('modified', '100644', '100644')).toBe('modified');
  });

  it('refuses statuses it cannot interpret', () => {
    const plan = planFiles([listed('unchanged')], tree('100644'), tree('100644'));
    expect(plan.files).toEqual([]);
    expect(plan.notes).toEqual(['p has GitHub status unchanged, which AUREUS cannot interpret.']);
  });
});

describe('readPullRequestChange', () => {
  it('builds the Change git builds for the same three-dot range', async () => {
    const pull = await makePullRequest(
      (origin) => {
        origin.write('src/modify.ts', 'export const a = 1;\n');
        origin.write('src/gone.ts', 'export const gone = true;\n');
        origin.write('old/name.ts', numberedLines(20, 'line'));
        origin.write('pure/from.txt', 'moved as is\n');
        origin.write('run.sh', '#!/bin/sh\necho hi\n');
        origin.write('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
        origin.write('big.txt', 'x'.repeat(MAX_BLOB_BYTES + 1000));
        origin.write('shared.txt', 'same bytes\n');
      },
      (origin) => {
        origin.write('src/modify.ts', 'export const a = 2;\n');
        origin.write('src/added.ts', 'export const added = 1;\n');
        origin.git('rm', '--quiet', 'src/gone.ts');
        origin.git('rm', '--quiet', 'old/name.ts', 'pure/from.txt');
        origin.write('new/name.ts', `${numberedLines(18, 'line')}edited 1\nedited 2\n`);
        origin.write('pure/to.txt', 'moved as is\n');
        chmodSync(join(origin.dir, 'run.sh'), 0o755);
        origin.write('latin1.txt', Buffer.from('na\xefve caf\xe9\n', 'latin1'));
        origin.write('big.txt', 'y'.repeat(MAX_BLOB_BYTES + 2000));
        // Over the limit too, but an npm lockfile's own limit is larger: read.
        origin.write('package-lock.json', lockfile(packagesOf('dep', 200, false)));
        origin.write('image.bin', BINARY);
        // Source git calls binary (GitHub sends no patch and zero counts), read as text.
        origin.write('src/nul.ts', '// a NUL \0 in a comment\nexport const n = 1;\n');
        origin.write('src/wide.ts', Buffer.from('\uFEFFexport const w = 1;\n', 'utf16le'));
        origin.symlink('/etc/passwd', 'link-to-secrets');
        // Same bytes under a second name: its blob is fetched once for both files.
        origin.write('copy-of-shared.txt', 'same bytes\n');
      },
    );
    double.reset();
    const fromApi = await readFromApi(pull);
    const fromGit = await readFromGit(pull);

    expect(fromGit.complete).toBe(true);
    expect(fromApi.complete).toBe(true);
    expect(fromApi.source).toBe('github');
    expect(fromGit.source).toBe('range');
    expect(fromApi.baseSha).toBe(fromGit.baseSha);
    expect(fromApi.baseSha).not.toBe(pull.baseSha); // the merge base, not the base tip
    expect(fromApi.headSha).toBe(pull.headSha);
    expect(fromApi.notes).toEqual(fromGit.notes);
    // Field by field, similarity aside (GitHub does not send it).
    expect(fromApi.files.map(withoutSimilarity)).toEqual(fromGit.files.map(withoutSimilarity));

    const byPath = (change: Change, path: string) =>
      change.files.find((file) => file.path === path);
    // An edited rename: git's score, none from the API.
    expect(byPath(fromGit, 'new/name.ts')?.similarity).toBe(90);
    expect(byPath(fromApi, 'new/name.ts')).not.toHaveProperty('similarity');
    // An exact rename: 100 from both.
    expect(byPath(fromGit, 'pure/to.txt')?.similarity).toBe(100);
    expect(byPath(fromApi, 'pure/to.txt')?.similarity).toBe(100);

    // The cases the PR was built to cover, so the parity above is not vacuous.
    const kinds = Object.fromEntries(
      fromApi.files.map((file) => [
        file.path,
        `${file.status}:${file.base?.kind ?? '-'}/${file.base?.mode ?? '-'}>${file.head?.kind ?? '-'}/${file.head?.mode ?? '-'}`,
      ]),
    );
    expect(kinds).toEqual({
      'big.txt': 'modified:too-large/100644>too-large/100644',
      'copy-of-shared.txt': 'added:-/->text/100644',
      'image.bin': 'added:-/->binary/100644',
      'latin1.txt': 'modified:text/100644>text/100644',
      'link-to-secrets': 'added:-/->symlink/120000',
      'new/name.ts': 'renamed:text/100644>text/100644',
      'package-lock.json': 'added:-/->text/100644',
      'pure/to.txt': 'renamed:text/100644>text/100644',
      'run.sh': 'modified:text/100644>text/100755',
      'src/added.ts': 'added:-/->text/100644',
      'src/gone.ts': 'deleted:text/100644>-/-',
      'src/modify.ts': 'modified:text/100644>text/100644',
      'src/nul.ts': 'added:-/->text/100644',
      'src/wide.ts': 'added:-/->text/100644',
    });
    expect(byPath(fromApi, 'latin1.txt')?.head?.validUtf8).toBe(false);
    expect(byPath(fromApi, 'link-to-secrets')?.head).not.toHaveProperty('text');
    expect(fromApi.notes).toEqual([
      `big.txt is ${MAX_BLOB_BYTES + 2000} bytes, over the ${MAX_BLOB_BYTES}-byte read limit, so its contents were not read.`,
    ]);

    expectCleanRequests();
    // One request per distinct readable blob: never the big file, a symlink or a blob twice.
    const readable = new Set(
      fromGit.files
        .flatMap((file) => [file.base, file.head])
        .filter((version) => version?.kind === 'text' || version?.kind === 'binary')
        .map((version) => version?.blobSha),
    );
    const requested = blobRequests();
    expect(requested.length).toBe(new Set(requested).size);
    expect(new Set(requested)).toEqual(readable);
    const big = byPath(fromGit, 'big.txt');
    expect(requested).not.toContain(big?.base?.blobSha);
    expect(requested).not.toContain(big?.head?.blobSha);
  });

  it('is incomplete when the listing stops at 3,000 of 3,001 files', async () => {
    const pull = await makePullRequest(
      (origin) => origin.write('README.md', 'hello\n'),
      (origin) => {
        for (let index = 0; index < 3001; index += 1) {
          origin.write(`many/f${String(index).padStart(4, '0')}.txt`, 'same\n');
        }
      },
    );
    double.reset();
    const change = await readFromApi(pull);
    expect(change.complete).toBe(false);
    expect(change.notes).toContain(
      "GitHub listed 3000 of the pull request's 3001 changed files (its files API stops at 3000); the others were not read.",
    );
    expect(change.files).toHaveLength(3000);
    expect(blobRequests()).toHaveLength(1);
    expect(double.callsTo('pulls/list-files')).toHaveLength(30);
    expectCleanRequests();
  });

  it('is incomplete when GitHub drops patches and counts (truncation)', async () => {
    const pull = await makePullRequest(
      (origin) => {
        origin.write('src/a.ts', 'export const a = 1;\n');
        origin.write('run.sh', 'echo\n');
      },
      (origin) => {
        origin.write('src/a.ts', 'export const a = 2;\n');
        chmodSync(join(origin.dir, 'run.sh'), 0o755);
        origin.write('image.bin', BINARY);
      },
    );
    double.truncatePatches = true;
    double.reset();
    const change = await readFromApi(pull);
    expect(change.complete).toBe(false);
    // Only the text edit is suspicious: a binary file and a mode change never have a patch.
    expect(change.notes).toEqual([
      'src/a.ts: GitHub sent no patch and zero line counts, as it does for a diff it truncated; its change could not be verified.',
    ]);
    expectCleanRequests();
  });

  it('is incomplete when a truncated tree misses a changed path', async () => {
    const pull = await makePullRequest(
      (origin) => {
        origin.write('a.txt', 'a\n');
        origin.write('b.txt', 'b\n');
        origin.write('z.txt', 'z\n');
      },
      (origin) => origin.write('z.txt', 'zz\n'),
    );
    double.maxTreeEntries = 1;
    double.reset();
    const change = await readFromApi(pull);
    expect(change.complete).toBe(false);
    expect(change.notes).toContain(
      'GitHub truncated the base tree listing (over its entry limit); changed files missing from it are marked unreadable.',
    );
    expect(change.notes).toContain(
      'z.txt could not be read: the base tree has no entry for it (GitHub truncated the tree listing).',
    );
    expect(change.files[0]?.base?.kind).toBe('unreadable');
    expectCleanRequests();
  });

  it('stays complete when a truncated tree still holds every changed path', async () => {
    const pull = await makePullRequest(
      (origin) => {
        origin.write('a.txt', 'a\n');
        origin.write('y.txt', 'y\n');
        origin.write('z.txt', 'z\n');
      },
      (origin) => origin.write('a.txt', 'aa\n'),
    );
    double.maxTreeEntries = 1;
    const change = await readFromApi(pull);
    expect(change.complete).toBe(true);
    expect(change.files[0]?.head?.text).toBe('aa\n');
    expect(change.notes).toHaveLength(2); // one per truncated tree, as information
  });

  it('is incomplete when a blob cannot be read', async () => {
    const pull = await makePullRequest(
      (origin) => origin.write('a.txt', 'a\n'),
      (origin) => origin.write('a.txt', 'b\n'),
    );
    double.failNext('git/get-blob', { status: 404 });
    const change = await readFromApi(pull);
    expect(change.complete).toBe(false);
    expect(change.notes).toHaveLength(1);
    expect(change.notes[0]).toMatch(/^a\.txt could not be read: GitHub answered 404 for blob /);
    expect(change.files.map((file) => file.base?.kind ?? file.head?.kind)).toContain('unreadable');
  });

  it('throws API errors other than unreadable blobs', async () => {
    const pull = await makePullRequest(
      (origin) => origin.write('a.txt', 'a\n'),
      (origin) => origin.write('a.txt', 'b\n'),
    );
    double.failNext('git/get-tree', { status: 500 });
    await expect(readFromApi(pull)).rejects.toMatchObject({ status: 500 });
  });
});
