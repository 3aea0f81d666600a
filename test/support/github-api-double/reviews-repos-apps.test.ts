import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { isolateGit, makeRepo, type Repo } from '../git-fixture.js';
import { type GitHubApiDouble, startGitHubApiDouble } from './index.js';

const OWNER = 'octo-org';
const REPO = 'widgets';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function octokitFor(double: GitHubApiDouble, auth: string): Octokit {
  return new Octokit({ auth, baseUrl: double.url, request: { retries: 0 }, log: quiet });
}

async function failureOf(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Error && 'status' in error) {
      return { status: Number(error.status), message: error.message };
    }
    throw error;
  }
  throw new Error('the call succeeded');
}

/** A JWT as probot signs one; the double reads `iss` and does not check the signature. */
function appJwt(appId: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iat: now - 60, exp: now + 540, iss: appId })}.c2ln`;
}

let restoreGit: () => Promise<void>;
let double: GitHubApiDouble;
let repo: Repo & { remove(): Promise<void> };
let base: string;
let head: string;

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('api-double-reviews');
  repo.write('src/price.ts', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n');
  repo.write('docs/readme.md', '# widgets\n');
  base = repo.commit('base');
  repo.git('checkout', '--quiet', '-b', 'feature');
  repo.write('src/price.ts', 'one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n');
  head = repo.commit('feature');
  repo.git('checkout', '--quiet', 'main');

  double = await startGitHubApiDouble();
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: repo.dir, private: false });
  double.addToken('tok', {
    contents: 'write',
    pull_requests: 'write',
    checks: 'write',
    issues: 'write',
  });
  double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 7,
    baseSha: 'main',
    headSha: 'feature',
    headRef: 'feature',
    headRepo: 'a-fork/widgets',
    user: 'contributor',
  });
});

afterAll(async () => {
  expect(double.responseViolations()).toEqual([]);
  await double.close();
  await repo.remove();
  await restoreGit();
});

describe('pull request reviews', () => {
  it('posts a suggestion on a changed line and refuses one outside the diff', async () => {
    const octokit = octokitFor(double, 'tok');
    const suggestion = '```suggestion\nthree\n```';
    const comment = await octokit.rest.pulls.createReviewComment({
      owner: OWNER,
      repo: REPO,
      pull_number: 7,
      commit_id: head,
      path: 'src/price.ts',
      line: 3,
      side: 'RIGHT',
      body: suggestion,
    });
    expect(comment.data).toMatchObject({ line: 3, side: 'RIGHT', path: 'src/price.ts' });
    expect(comment.data.diff_hunk).toBe('@@ -1,6 +1,6 @@\n one\n two\n-three\n+THREE');

    const outside = await failureOf(
      octokit.rest.pulls.createReviewComment({
        owner: OWNER,
        repo: REPO,
        pull_number: 7,
        commit_id: head,
        path: 'docs/readme.md',
        line: 1,
        body: 'not changed here',
      }),
    );
    expect(outside.status).toBe(422);
    expect(double.invalidRequests().at(-1)?.message).toContain('could not be resolved');

    const review = await octokit.rest.pulls.createReview({
      owner: OWNER,
      repo: REPO,
      pull_number: 7,
      event: 'COMMENT',
      body: 'AUREUS suggestions',
      comments: [
        { path: 'src/price.ts', line: 11, body: '```suggestion\n```' },
        { path: 'src/price.ts', start_line: 2, line: 3, body: 'range' },
      ],
    });
    expect(review.data.state).toBe('COMMENTED');
    expect(double.reviews(OWNER, REPO, 7)[0]?.commentIds).toHaveLength(2);

    const listed = await octokit.paginate(octokit.rest.pulls.listReviewComments, {
      owner: OWNER,
      repo: REPO,
      pull_number: 7,
    });
    expect(listed.map((item) => item.line)).toEqual([3, 11, 3]);

    const badReview = await failureOf(
      octokit.rest.pulls.createReview({
        owner: OWNER,
        repo: REPO,
        pull_number: 7,
        event: 'COMMENT',
        comments: [{ path: 'src/price.ts', line: 40, body: 'nowhere' }],
      }),
    );
    expect(badReview.status).toBe(422);
    expect(double.reviews(OWNER, REPO, 7)).toHaveLength(1);
  });
});

describe('pull requests from forks and repository reads', () => {
  it('describes the fork head and the base as GitHub does', async () => {
    const octokit = octokitFor(double, 'tok');
    const { data: pull } = await octokit.rest.pulls.get({
      owner: OWNER,
      repo: REPO,
      pull_number: 7,
    });
    expect(pull.head.repo?.full_name).toBe('a-fork/widgets');
    expect(pull.head.repo?.fork).toBe(true);
    expect(pull.base.repo.full_name).toBe(`${OWNER}/${REPO}`);
    expect(pull).toMatchObject({ changed_files: 1, additions: 2, deletions: 1, commits: 1 });
    expect(pull.user.login).toBe('contributor');

    const { data: repository } = await octokit.rest.repos.get({ owner: OWNER, repo: REPO });
    expect(repository.default_branch).toBe('main');

    const compare = await octokit.rest.repos.compareCommits({
      owner: OWNER,
      repo: REPO,
      base: 'main',
      head: 'feature',
    });
    expect(compare.data).toMatchObject({ status: 'ahead', ahead_by: 1, behind_by: 0 });
    expect(compare.data.files?.map((file) => file.filename)).toEqual(['src/price.ts']);
    expect(compare.data.merge_base_commit.sha).toBe(base);

    const commit = await octokit.rest.repos.getCommit({ owner: OWNER, repo: REPO, ref: head });
    expect(commit.data.stats).toEqual({ additions: 2, deletions: 1, total: 3 });

    const folder = await octokit.rest.repos.getContent({ owner: OWNER, repo: REPO, path: 'src' });
    expect(Array.isArray(folder.data) && folder.data.map((entry) => entry.path)).toEqual([
      'src/price.ts',
    ]);
    const missing = await failureOf(
      octokit.rest.repos.getContent({ owner: OWNER, repo: REPO, path: 'nope.txt' }),
    );
    expect(missing.status).toBe(404);
  });

  it('lists the commits of a branch newest first, a page at a time, and refuses filters it does not apply', async () => {
    const octokit = octokitFor(double, 'tok');
    const first = await octokit.rest.repos.listCommits({
      owner: OWNER,
      repo: REPO,
      sha: 'feature',
      per_page: 1,
    });
    expect(first.data.map((commit) => [commit.sha, commit.commit.message])).toEqual([
      [head, 'feature'],
    ]);
    expect(first.headers.link).toContain('rel="next"');
    const all = await octokit.paginate(octokit.rest.repos.listCommits, {
      owner: OWNER,
      repo: REPO,
      sha: head,
      per_page: 1,
    });
    expect(all.map((commit) => commit.sha)).toEqual([head, base]);
    const main = await octokit.rest.repos.listCommits({ owner: OWNER, repo: REPO });
    expect(main.data.map((commit) => commit.sha)).toEqual([base]);
    expect(
      await failureOf(
        octokit.rest.repos.listCommits({ owner: OWNER, repo: REPO, path: 'src/price.ts' }),
      ),
    ).toMatchObject({ status: 422 });
    expect(
      await failureOf(octokit.rest.repos.listCommits({ owner: OWNER, repo: REPO, sha: 'nowhere' })),
    ).toMatchObject({ status: 404 });
  });

  it('reports collaborator roles the way GitHub maps them', async () => {
    double.setPermission(OWNER, REPO, 'maintainer', 'maintain');
    const octokit = octokitFor(double, 'tok');
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: OWNER,
      repo: REPO,
      username: 'maintainer',
    });
    expect(data).toMatchObject({ permission: 'write', role_name: 'maintain' });
    const stranger = await octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: OWNER,
      repo: REPO,
      username: 'stranger',
    });
    expect(stranger.data.permission).toBe('read');
  });

  it('completing a check run without a conclusion is invalid', async () => {
    const failure = await failureOf(
      octokitFor(double, 'tok').rest.checks.create({
        owner: OWNER,
        repo: REPO,
        name: 'AUREUS',
        head_sha: head,
        status: 'completed',
      }),
    );
    expect(failure.status).toBe(422);
    expect(double.invalidRequests().at(-1)?.operationId).toBe('checks/create');
  });

  it('refuses to write a workflow file without the workflows permission', async () => {
    const failure = await failureOf(
      octokitFor(double, 'tok').rest.repos.createOrUpdateFileContents({
        owner: OWNER,
        repo: REPO,
        path: '.github/workflows/evil.yml',
        message: 'x',
        content: Buffer.from('on: push\n').toString('base64'),
      }),
    );
    expect(failure.status).toBe(403);
    expect(double.forbiddenRequests().at(-1)?.path).toContain('.github%2Fworkflows');
  });
});

describe('GitHub App authentication', () => {
  it('mints an installation token from an app JWT and acts as the app bot', async () => {
    double.addApp({ id: 4242, slug: 'aureus-bot', name: 'AUREUS' });
    double.addInstallation({
      id: 99,
      appId: 4242,
      account: { login: OWNER, type: 'Organization' },
      permissions: { contents: 'read', pull_requests: 'write', checks: 'write', metadata: 'read' },
      repositories: [REPO],
    });
    const asApp = octokitFor(double, appJwt(4242));
    const app = await asApp.rest.apps.getAuthenticated();
    expect(app.data?.slug).toBe('aureus-bot');
    const installation = await asApp.rest.apps.getRepoInstallation({ owner: OWNER, repo: REPO });
    expect(installation.data.id).toBe(99);
    const { data: token } = await asApp.rest.apps.createInstallationAccessToken({
      installation_id: 99,
    });

    const asInstallation = octokitFor(double, token.token);
    const comment = await asInstallation.rest.pulls.createReviewComment({
      owner: OWNER,
      repo: REPO,
      pull_number: 7,
      commit_id: head,
      path: 'src/price.ts',
      line: 11,
      body: 'from the app',
    });
    expect(comment.data.user?.login).toBe('aureus-bot[bot]');
    // contents: read only.
    const refused = await failureOf(
      asInstallation.rest.git.createBlob({ owner: OWNER, repo: REPO, content: 'x' }),
    );
    expect(refused.status).toBe(403);
    // An installation token is not an app JWT.
    expect((await failureOf(asInstallation.rest.apps.getAuthenticated())).status).toBe(401);
    expect(
      (
        await failureOf(
          asApp.rest.apps.createInstallationAccessToken({
            installation_id: 99,
            permissions: { contents: 'write' },
          }),
        )
      ).status,
    ).toBe(422);
  });
});
