import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { isolateGit, makeRepo, type Repo } from '../git-fixture.js';
import {
  type GitHubApiDouble,
  type Permissions,
  secondaryRateLimit,
  startGitHubApiDouble,
} from './index.js';

const OWNER = 'octo-org';
const REPO = 'widgets';
const WRITE_ALL: Permissions = {
  contents: 'write',
  pull_requests: 'write',
  checks: 'write',
  issues: 'write',
  metadata: 'read',
};
const READ_ONLY: Permissions = {
  contents: 'read',
  pull_requests: 'read',
  checks: 'read',
  issues: 'read',
  metadata: 'read',
};

/** Expected failures are the point of several tests; Octokit need not print them. */
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Octokit as the Action builds it, pointed at the double, without retries hiding failures. */
function octokitFor(double: GitHubApiDouble, token = 'write-token'): Octokit {
  return new Octokit({ auth: token, baseUrl: double.url, request: { retries: 0 }, log: quiet });
}

/** The status of a call expected to fail. */
async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'status' in error) {
      return Number(error.status);
    }
    throw error;
  }
  throw new Error('the call succeeded');
}

/** Parses a `Link` header into `{ next: 2, last: 4 }`. */
function linkPages(link: string | undefined): Record<string, number> {
  const pages: Record<string, number> = {};
  for (const part of (link ?? '').split(',')) {
    const match = /<([^>]+)>;\s*rel="(\w+)"/.exec(part);
    if (match?.[1] !== undefined && match[2] !== undefined) {
      pages[match[2]] = Number(new URL(match[1]).searchParams.get('page'));
    }
  }
  return pages;
}

let restoreGit: () => Promise<void>;
let double: GitHubApiDouble;
let repo: Repo & { remove(): Promise<void> };
let base: string;
let head: string;
let many301: string;
let many3001: string;

/** Tiny files, all added by one `git add` and one commit. */
function addManyFiles(count: number, folder: string): void {
  for (let i = 0; i < count; i += 1) {
    repo.write(`${folder}/f${String(i).padStart(4, '0')}.txt`, `${i}\n`);
  }
}

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('api-double');
  repo.write('src/keep.ts', 'export const keep = 1;\n');
  repo.write(
    'src/old-name.ts',
    `${Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n')}\n`,
  );
  repo.write('src/gone.ts', 'export const gone = true;\n');
  repo.write('src/edit.ts', 'a\nb\nc\nd\ne\nf\ng\nh\n');
  base = repo.commit('base');

  repo.git('checkout', '--quiet', '-b', 'feature');
  repo.git('mv', 'src/old-name.ts', 'src/new-name.ts');
  repo.git('rm', '--quiet', 'src/gone.ts');
  repo.write('src/edit.ts', 'a\nb\nC\nd\ne\nf\ng\nh\ni\n');
  repo.write('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255, 254]));
  repo.write('src/added.ts', 'export const added = 2;\n');
  head = repo.commit('feature');

  repo.git('checkout', '--quiet', '-b', 'many-301', base);
  addManyFiles(301, 'many');
  many301 = repo.commit('301 files');
  repo.git('checkout', '--quiet', '-b', 'many-3001', base);
  addManyFiles(3001, 'lots');
  many3001 = repo.commit('3001 files');
  repo.git('checkout', '--quiet', 'main');

  double = await startGitHubApiDouble({ strictResponses: true });
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: repo.dir });
  double.addToken('write-token', WRITE_ALL);
  double.addToken('read-token', READ_ONLY);
  double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 1,
    baseSha: base,
    headSha: head,
    headRef: 'feature',
    title: 'Rename, delete, binary',
  });
  double.addPullRequest({ owner: OWNER, repo: REPO, number: 2, baseSha: base, headSha: many301 });
  double.addPullRequest({ owner: OWNER, repo: REPO, number: 3, baseSha: base, headSha: many3001 });
});

afterAll(async () => {
  // No test may leave the double answering with a shape GitHub never sends.
  expect(double.responseViolations()).toEqual([]);
  await double.close();
  await repo.remove();
  await restoreGit();
});

describe('issue comments', () => {
  it('creates, lists and updates a sticky comment, as the same bot', async () => {
    const octokit = octokitFor(double);
    const created = await octokit.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: 1,
      body: 'AUREUS: 3 points over budget',
    });
    expect(created.status).toBe(201);
    expect(created.data.user?.login).toBe('github-actions[bot]');
    expect(created.data.html_url).toBe(
      `https://github.com/${OWNER}/${REPO}/pull/1#issuecomment-${created.data.id}`,
    );

    const listed = await octokit.rest.issues.listComments({
      owner: OWNER,
      repo: REPO,
      issue_number: 1,
    });
    expect(listed.data.map((comment) => comment.id)).toEqual([created.data.id]);

    const updated = await octokit.rest.issues.updateComment({
      owner: OWNER,
      repo: REPO,
      comment_id: created.data.id,
      body: 'AUREUS: within budget',
    });
    expect(updated.data.body).toBe('AUREUS: within budget');
    expect(double.issueComments(OWNER, REPO, 1)).toEqual([
      expect.objectContaining({ id: created.data.id, body: 'AUREUS: within budget' }),
    ]);
    expect(double.callsTo('issues/update-comment')).toHaveLength(1);

    const reaction = await octokit.rest.reactions.createForIssueComment({
      owner: OWNER,
      repo: REPO,
      comment_id: created.data.id,
      content: 'rocket',
    });
    expect(reaction.status).toBe(201);
  });

  it('refuses a body over 65,536 characters like GitHub', async () => {
    const status = await statusOf(
      octokitFor(double).rest.issues.createComment({
        owner: OWNER,
        repo: REPO,
        issue_number: 9,
        body: '🙂'.repeat(65_537),
      }),
    );
    expect(status).toBe(422);
    expect(double.issueComments(OWNER, REPO, 9)).toEqual([]);
  });
});

describe('check runs', () => {
  it('appends annotations across updates, 50 per request at most', async () => {
    const octokit = octokitFor(double);
    const annotations = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => ({
        path: 'src/edit.ts',
        start_line: from + i + 1,
        end_line: from + i + 1,
        annotation_level: 'warning' as const,
        message: `finding ${from + i}`,
      }));
    const run = await octokit.rest.checks.create({
      owner: OWNER,
      repo: REPO,
      name: 'AUREUS',
      head_sha: head,
      status: 'in_progress',
      output: { title: 'Pricing', summary: 'started' },
    });
    expect(run.status).toBe(201);
    for (const [from, count] of [
      [0, 50],
      [50, 50],
      [100, 20],
    ] as const) {
      await octokit.rest.checks.update({
        owner: OWNER,
        repo: REPO,
        check_run_id: run.data.id,
        output: { title: 'Pricing', summary: 'partial', annotations: annotations(from, count) },
      });
    }
    const done = await octokit.rest.checks.update({
      owner: OWNER,
      repo: REPO,
      check_run_id: run.data.id,
      conclusion: 'failure',
      output: { title: 'Over budget', summary: 'done' },
    });
    expect(done.data.status).toBe('completed');
    expect(done.data.output.annotations_count).toBe(120);
    const [view] = double.checkRuns(OWNER, REPO);
    expect(view?.annotations.map((annotation) => annotation.message)).toEqual(
      Array.from({ length: 120 }, (_, i) => `finding ${i}`),
    );
    expect(view?.annotationBatches).toBe(3);

    const listed = await octokit.rest.checks.listForRef({
      owner: OWNER,
      repo: REPO,
      ref: 'feature',
    });
    expect(listed.data.total_count).toBe(1);

    const before = double.invalidRequests().length;
    const tooMany = await statusOf(
      octokit.rest.checks.update({
        owner: OWNER,
        repo: REPO,
        check_run_id: run.data.id,
        output: { title: 'x', summary: 'x', annotations: annotations(0, 51) },
      }),
    );
    expect(tooMany).toBe(422);
    expect(double.invalidRequests()).toHaveLength(before + 1);
    expect(double.checkRuns(OWNER, REPO)[0]?.annotations).toHaveLength(120);
  });

  it('records a body the schema refuses as invalid, with GitHub-style wording', async () => {
    const before = double.invalidRequests().length;
    const octokit = octokitFor(double);
    // Typed as a plain string, Octokit lets through the body its own types would refuse.
    const route: string = 'POST /repos/{owner}/{repo}/check-runs';
    const status = await statusOf(
      octokit.request(route, {
        owner: OWNER,
        repo: REPO,
        name: 'AUREUS',
      }),
    );
    expect(status).toBe(422);
    const invalid = double.invalidRequests().slice(before);
    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.operationId).toBe('checks/create');
    expect(invalid[0]?.message).toContain('"head_sha" wasn\'t supplied.');
  });
});

describe('authentication and routing', () => {
  it('answers 403 to a read-only token (a fork pull request) and records it', async () => {
    const error = await octokitFor(double, 'read-token')
      .rest.issues.createComment({ owner: OWNER, repo: REPO, issue_number: 1, body: 'hi' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      status: 403,
      message: expect.stringContaining('Resource not accessible by integration'),
    });
    expect(double.forbiddenRequests().at(-1)).toMatchObject({
      operationId: 'issues/create-comment',
      token: 'read-token',
      status: 403,
    });
    // Reading is still allowed.
    const pull = await octokitFor(double, 'read-token').rest.pulls.get({
      owner: OWNER,
      repo: REPO,
      pull_number: 1,
    });
    expect(pull.data.head.sha).toBe(head);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    const anonymous = new Octokit({ baseUrl: double.url, log: quiet });
    expect(await statusOf(anonymous.rest.repos.get({ owner: OWNER, repo: REPO }))).toBe(401);
    expect(
      await statusOf(octokitFor(double, 'nope').rest.repos.get({ owner: OWNER, repo: REPO })),
    ).toBe(401);
  });

  it('records a route GitHub does not have as unexpected', async () => {
    const before = double.unexpectedRequests().length;
    const status = await statusOf(
      octokitFor(double).request('GET /repos/{owner}/{repo}/no-such-thing', {
        owner: OWNER,
        repo: REPO,
      }),
    );
    expect(status).toBe(404);
    expect(double.unexpectedRequests().slice(before)).toEqual([
      expect.objectContaining({ method: 'GET', path: `/repos/${OWNER}/${REPO}/no-such-thing` }),
    ]);
  });
});

describe('pull request files from real git', () => {
  it('lists a rename, a deletion, a binary file and edits with their patches', async () => {
    const { data: files } = await octokitFor(double).rest.pulls.listFiles({
      owner: OWNER,
      repo: REPO,
      pull_number: 1,
    });
    const byName = new Map(files.map((file) => [file.filename, file]));
    expect(byName.get('src/new-name.ts')).toMatchObject({
      status: 'renamed',
      previous_filename: 'src/old-name.ts',
      additions: 0,
      deletions: 0,
      changes: 0,
    });
    expect(byName.get('src/gone.ts')).toMatchObject({ status: 'removed', deletions: 1 });
    const binary = byName.get('assets/logo.png');
    expect(binary).toMatchObject({ status: 'added', additions: 0, deletions: 0 });
    expect(binary).not.toHaveProperty('patch');
    expect(byName.get('src/edit.ts')).toMatchObject({
      status: 'modified',
      additions: 2,
      deletions: 1,
      changes: 3,
      sha: repo.git('rev-parse', `${head}:src/edit.ts`),
    });
    expect(byName.get('src/edit.ts')?.patch).toBe(
      '@@ -1,8 +1,9 @@\n a\n b\n-c\n+C\n d\n e\n f\n g\n h\n+i',
    );
    expect(byName.get('src/added.ts')?.contents_url).toBe(
      `${double.url}/repos/${OWNER}/${REPO}/contents/src/added.ts?ref=${head}`,
    );
  });

  it('pages 301 files over 4 pages with GitHub Link headers', async () => {
    const octokit = octokitFor(double);
    const request = { owner: OWNER, repo: REPO, pull_number: 2, per_page: 100 };
    const first = await octokit.rest.pulls.listFiles(request);
    expect(first.data).toHaveLength(100);
    expect(linkPages(first.headers.link)).toEqual({ next: 2, last: 4 });
    expect(first.headers.link).toContain('per_page=100');
    const third = await octokit.rest.pulls.listFiles({ ...request, page: 3 });
    expect(linkPages(third.headers.link)).toEqual({ prev: 2, next: 4, last: 4, first: 1 });
    const last = await octokit.rest.pulls.listFiles({ ...request, page: 4 });
    expect(last.data).toHaveLength(1);
    expect(linkPages(last.headers.link)).toEqual({ prev: 3, first: 1 });

    const all = await octokit.paginate(octokit.rest.pulls.listFiles, request);
    expect(all).toHaveLength(301);
    expect(new Set(all.map((file) => file.filename)).size).toBe(301);
    // Without per_page GitHub sends 30 a page.
    const defaults = await octokit.rest.pulls.listFiles({
      owner: OWNER,
      repo: REPO,
      pull_number: 2,
    });
    expect(defaults.data).toHaveLength(30);
    expect(linkPages(defaults.headers.link).last).toBe(11);
  });

  it('stops at 3,000 files while the pull request counts 3,001', async () => {
    const octokit = octokitFor(double);
    const all = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: OWNER,
      repo: REPO,
      pull_number: 3,
      per_page: 100,
    });
    expect(all).toHaveLength(3000);
    const pull = await octokit.rest.pulls.get({ owner: OWNER, repo: REPO, pull_number: 3 });
    expect(pull.data.changed_files).toBe(3001);
  });

  it('lists at most 300 files in a compare, on its first page only, as GitHub does', async () => {
    const octokit = octokitFor(double);
    const request = { owner: OWNER, repo: REPO, base, head: many301 };
    // Unpaged and paged alike: 300 of the 301 files, and nothing says how many were left out.
    const unpaged = await octokit.rest.repos.compareCommits(request);
    expect(unpaged.data.files).toHaveLength(300);
    expect(unpaged.data).not.toHaveProperty('changed_files');
    const first = await octokit.rest.repos.compareCommits({ ...request, per_page: 1 });
    expect(first.data.files).toHaveLength(300);
    expect(new Set(first.data.files?.map((file) => file.filename)).size).toBe(300);
    expect(first.data.commits).toHaveLength(1);
    const second = await octokit.rest.repos.compareCommits({ ...request, per_page: 1, page: 2 });
    expect(second.data.files).toEqual([]);
    // Under the cap the compare is whole.
    const small = await octokit.rest.repos.compareCommits({ ...request, head });
    expect(small.data.files).toHaveLength(5);
  });

  it('drops patches and counts when told GitHub truncated them', async () => {
    double.truncatePatches = true;
    try {
      const { data } = await octokitFor(double).rest.pulls.listFiles({
        owner: OWNER,
        repo: REPO,
        pull_number: 1,
      });
      expect(data.every((file) => file.patch === undefined && file.additions === 0)).toBe(true);
    } finally {
      double.truncatePatches = false;
    }
  });
});

describe('git data from real git', () => {
  it('serves blobs and trees exactly as git has them', async () => {
    const octokit = octokitFor(double);
    const blobSha = repo.git('rev-parse', `${head}:src/edit.ts`);
    const blob = await octokit.rest.git.getBlob({ owner: OWNER, repo: REPO, file_sha: blobSha });
    expect(Buffer.from(blob.data.content, 'base64').toString('utf8')).toBe(
      repo.git('cat-file', 'blob', blobSha).concat('\n'),
    );
    const png = await octokit.rest.git.getBlob({
      owner: OWNER,
      repo: REPO,
      file_sha: repo.git('rev-parse', `${head}:assets/logo.png`),
    });
    expect([...Buffer.from(png.data.content, 'base64')]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255, 254,
    ]);

    const tree = await octokit.rest.git.getTree({
      owner: OWNER,
      repo: REPO,
      tree_sha: head,
      recursive: '1',
    });
    expect(tree.data.truncated).toBe(false);
    const fromGit = repo
      .git('ls-tree', '-r', '-t', head)
      .split('\n')
      .map((line) => {
        const [meta = '', path] = line.split('\t');
        const [mode = '', type, sha] = meta.split(' ');
        return { path, mode: mode === '40000' ? '040000' : mode, type, sha };
      });
    expect(tree.data.tree.map(({ path, mode, type, sha }) => ({ path, mode, type, sha }))).toEqual(
      fromGit,
    );
    expect(tree.data.tree.find((entry) => entry.path === 'src/edit.ts')?.size).toBe(18);

    double.maxTreeEntries = 2;
    try {
      const cut = await octokit.rest.git.getTree({
        owner: OWNER,
        repo: REPO,
        tree_sha: head,
        recursive: '1',
      });
      expect(cut.data).toMatchObject({ truncated: true });
      expect(cut.data.tree).toHaveLength(2);
    } finally {
      double.maxTreeEntries = 100_000;
    }
  });

  it('refuses a non-fast-forward update-ref unless forced', async () => {
    const octokit = octokitFor(double);
    const blob = await octokit.rest.git.createBlob({
      owner: OWNER,
      repo: REPO,
      content: 'ledger v1\n',
    });
    expect(blob.data.sha).toBe(repo.hashText('ledger v1\n'));
    const tree = await octokit.rest.git.createTree({
      owner: OWNER,
      repo: REPO,
      base_tree: repo.git('rev-parse', `${base}^{tree}`),
      tree: [{ path: '.aureus/ledger.json', mode: '100644', type: 'blob', sha: blob.data.sha }],
    });
    const commit = await octokit.rest.git.createCommit({
      owner: OWNER,
      repo: REPO,
      message: 'ledger',
      tree: tree.data.sha,
      parents: [base],
    });
    const created = await octokit.rest.git.createRef({
      owner: OWNER,
      repo: REPO,
      ref: 'refs/heads/ledger',
      sha: commit.data.sha,
    });
    expect(created.status).toBe(201);
    expect(
      await statusOf(
        octokit.rest.git.createRef({
          owner: OWNER,
          repo: REPO,
          ref: 'refs/heads/ledger',
          sha: base,
        }),
      ),
    ).toBe(422);

    // `head` is not a descendant of the new commit: not a fast forward.
    const refused = await octokit.rest.git
      .updateRef({ owner: OWNER, repo: REPO, ref: 'heads/ledger', sha: head, force: false })
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({
      status: 422,
      message: expect.stringContaining('Update is not a fast forward'),
    });
    expect(double.ref(OWNER, REPO, 'ledger')).toBe(commit.data.sha);

    const child = await octokit.rest.git.createCommit({
      owner: OWNER,
      repo: REPO,
      message: 'ledger 2',
      tree: tree.data.sha,
      parents: [commit.data.sha],
    });
    await octokit.rest.git.updateRef({
      owner: OWNER,
      repo: REPO,
      ref: 'heads/ledger',
      sha: child.data.sha,
    });
    await octokit.rest.git.updateRef({
      owner: OWNER,
      repo: REPO,
      ref: 'heads/ledger',
      sha: head,
      force: true,
    });
    expect(double.ref(OWNER, REPO, 'refs/heads/ledger')).toBe(head);
    const ref = await octokit.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/ledger' });
    expect(ref.data.object.sha).toBe(head);
  });
});

describe('contents API', () => {
  it('writes a shared ledger and turns away a writer holding a stale sha with 409', async () => {
    const octokit = octokitFor(double);
    const path = '.aureus/shared-ledger.json';
    const content = (text: string) => Buffer.from(text).toString('base64');
    const first = await octokit.rest.repos.createOrUpdateFileContents({
      owner: OWNER,
      repo: REPO,
      path,
      message: 'ledger: first entry',
      content: content('{"entries":1}\n'),
      branch: 'main',
    });
    expect(first.status).toBe(201);
    const readBack = await octokit.rest.repos.getContent({
      owner: OWNER,
      repo: REPO,
      path,
      ref: 'main',
    });
    if (Array.isArray(readBack.data) || readBack.data.type !== 'file')
      throw new Error('not a file');
    expect(Buffer.from(readBack.data.content, 'base64').toString()).toBe('{"entries":1}\n');
    const staleSha = readBack.data.sha;

    const second = await octokit.rest.repos.createOrUpdateFileContents({
      owner: OWNER,
      repo: REPO,
      path,
      message: 'ledger: second entry',
      content: content('{"entries":2}\n'),
      sha: staleSha,
      branch: 'main',
    });
    expect(second.status).toBe(200);
    const conflict = await statusOf(
      octokit.rest.repos.createOrUpdateFileContents({
        owner: OWNER,
        repo: REPO,
        path,
        message: 'ledger: concurrent entry',
        content: content('{"entries":"lost"}\n'),
        sha: staleSha,
        branch: 'main',
      }),
    );
    expect(conflict).toBe(409);
    expect(double.fileAt(OWNER, REPO, 'main', path)?.toString()).toBe('{"entries":2}\n');
    // The branch moved forward on top of the repository's own history.
    const tip = double.ref(OWNER, REPO, 'main') ?? '';
    const commit = await octokit.rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: tip });
    expect(commit.data.parents[0]?.sha).toBe(first.data.commit.sha);
  });
});

describe('fault injection', () => {
  it('serves a secondary rate limit, then the real answer, to a throttled client', async () => {
    const Throttled = Octokit.plugin(throttling);
    const retried: number[] = [];
    const octokit = new Throttled({
      auth: 'write-token',
      baseUrl: double.url,
      log: quiet,
      throttle: {
        onRateLimit: () => false,
        onSecondaryRateLimit: (retryAfter: number) => {
          retried.push(retryAfter);
          return retried.length <= 1;
        },
      },
    });
    double.failNext('issues/create-comment', secondaryRateLimit(1));
    const before = double.issueComments(OWNER, REPO, 5).length;
    const created = await octokit.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: 5,
      body: 'posted once',
    });
    expect(created.status).toBe(201);
    expect(retried).toEqual([1]);
    expect(double.issueComments(OWNER, REPO, 5)).toHaveLength(before + 1);
    const calls = double.callsTo('issues/create-comment').slice(-2);
    expect(calls.map((call) => [call.status, call.outcome])).toEqual([
      [403, 'injected'],
      [201, 'handled'],
    ]);
  });
});
