import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createGitHubClient, type GitHubClient } from '../../src/github/github-client.js';
import { reviewApproval } from '../../src/github/review-approval.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { type GitHubApiDouble, startGitHubApiDouble } from '../support/github-api-double/index.js';

const OWNER = 'octo';
const REPO = 'service';
const REPOSITORY = { owner: OWNER, repo: REPO };
const TOKEN = 'pull-requests-read';
const ADMIN = { login: 'ada', id: 7301 };
const MAINTAINER = { login: 'maia', id: 7302 };
const WRITER = { login: 'wren', id: 7303 };

let restoreGit: () => Promise<void>;
let double: GitHubApiDouble;
let client: GitHubClient;
let repo: Repo & { remove(): Promise<void> };
let older: string;
let head: string;
let nextPull = 1;

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('review-approval');
  repo.write('a.txt', 'one\n');
  repo.commit('base');
  repo.write('a.txt', 'two\n');
  older = repo.commit('first push');
  repo.write('a.txt', 'three\n');
  head = repo.commit('second push');
  double = await startGitHubApiDouble();
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: repo.dir });
  double.addToken(TOKEN, { metadata: 'read', pull_requests: 'read' });
  double.setPermission(OWNER, REPO, ADMIN, 'admin');
  double.setPermission(OWNER, REPO, MAINTAINER, 'maintain');
  double.setPermission(OWNER, REPO, WRITER, 'write');
  client = createGitHubClient({
    token: TOKEN,
    baseUrl: double.url,
    userAgent: 't',
    warn: () => {},
  });
});

afterEach(() => {
  expect(double.invalidRequests()).toEqual([]);
  expect(double.unexpectedRequests()).toEqual([]);
  expect(double.forbiddenRequests()).toEqual([]);
  expect(double.responseViolations()).toEqual([]);
});

afterAll(async () => {
  await double.close();
  await repo.remove();
  await restoreGit();
});

type State = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';

/** A pull request of its own whose reviews are `reviews`, oldest first; its approval of `head`. */
function approvalAfter(reviews: [{ login: string; id: number }, State, string][]) {
  const number = nextPull++;
  double.addPullRequest({ owner: OWNER, repo: REPO, number, baseSha: older, headSha: head });
  for (const [user, state, commitId] of reviews)
    double.addReview({ owner: OWNER, repo: REPO, pullNumber: number, user, state, commitId });
  return reviewApproval(client, REPOSITORY, number, head);
}

describe('reviewApproval', () => {
  it("takes an admin's or a maintainer's approval of the head, told by role_name", async () => {
    expect(await approvalAfter([[ADMIN, 'APPROVED', head]])).toMatchObject({
      by: '@ada',
      accountId: ADMIN.id,
    });
    expect(await approvalAfter([[MAINTAINER, 'APPROVED', head]])).toMatchObject({
      by: '@maia',
      accountId: MAINTAINER.id,
    });
  });

  it('keeps an approval a later plain comment follows', async () => {
    const approval = await approvalAfter([
      [ADMIN, 'APPROVED', head],
      [ADMIN, 'COMMENTED', head],
    ]);
    expect(approval?.accountId).toBe(ADMIN.id);
  });

  // The commits exist only once beforeAll ran: the cases name them.
  it.each<[string, [{ login: string; id: number }, State, 'head' | 'older'][]]>([
    ['a write user', [[WRITER, 'APPROVED', 'head']]],
    ['an older commit', [[ADMIN, 'APPROVED', 'older']]],
    ['a dismissed review', [[ADMIN, 'DISMISSED', 'head']]],
    [
      'a later request for changes',
      [
        [ADMIN, 'APPROVED', 'head'],
        [ADMIN, 'CHANGES_REQUESTED', 'head'],
      ],
    ],
  ])('takes no approval from %s', async (_case, reviews) => {
    const real = reviews.map(([user, state, commit]): [typeof user, State, string] => [
      user,
      state,
      commit === 'head' ? head : older,
    ]);
    expect(await approvalAfter(real)).toBeUndefined();
  });
});
