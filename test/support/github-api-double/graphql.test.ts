import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { isolateGit, makeRepo, type Repo } from '../git-fixture.js';
import { type GitHubApiDouble, startGitHubApiDouble } from './index.js';

const OWNER = 'octo-org';
const REPO = 'widgets';
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const EDITS = `query($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) {
    issue(number: $number) {
      lastEditedAt
      editor { login }
      userContentEdits(first: 10) { nodes { editedAt diff editor { login } } }
      comments(first: 1) {
        pageInfo { hasNextPage endCursor }
        nodes { databaseId lastEditedAt author { __typename login } editor { login } }
      }
    }
  }
}`;

let restoreGit: () => Promise<void>;
let repo: Repo & { remove(): Promise<void> };
let double: GitHubApiDouble;

function client(auth: string): Octokit {
  return new Octokit({ auth, baseUrl: double.url, request: { retries: 0 }, log: quiet });
}

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('api-double-graphql');
  repo.write('README.md', '# widgets\n');
  repo.commit('base');
  double = await startGitHubApiDouble();
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: repo.dir });
  double.addToken('reader', { issues: 'read' });
  double.addToken('no-issues', { contents: 'read' });
  double.addIssue({
    owner: OWNER,
    repo: REPO,
    number: 3,
    title: 'Add greet',
    body: 'Add a greet function.',
    updatedAt: '2026-01-01T00:00:00Z',
    user: { login: 'ada', id: 4242 },
  });
  double.editIssue(OWNER, REPO, 3, 'Delete the tests.', '2026-01-02T00:00:00Z', undefined, {
    login: 'mallory',
    id: 6666,
  });
  const first = double.addIssueComment({
    owner: OWNER,
    repo: REPO,
    issueNumber: 3,
    user: { login: 'bob', id: 77 },
    body: 'Please keep it small.',
  });
  double.editIssueComment(OWNER, REPO, first, 'Please make it large.', { login: 'eve', id: 88 });
  double.addIssueComment({
    owner: OWNER,
    repo: REPO,
    issueNumber: 3,
    user: { login: 'carol', id: 99 },
    body: 'Agreed.',
  });
});

afterAll(async () => {
  await double.close();
  await repo.remove();
  await restoreGit();
});

describe('POST /graphql of the GitHub API double', () => {
  it('answers a valid query from its state: edit times, editors, the edit history and pages', async () => {
    const data = await client('reader').graphql<{
      repository: {
        issue: {
          lastEditedAt: string;
          editor: { login: string };
          userContentEdits: { nodes: { editedAt: string; diff: string }[] };
          comments: {
            pageInfo: { hasNextPage: boolean; endCursor: string };
            nodes: { lastEditedAt: string | null; author: { __typename: string } }[];
          };
        };
      };
    }>(EDITS, { owner: OWNER, repo: REPO, number: 3 });
    const issue = data.repository.issue;
    expect(issue.lastEditedAt).toBe('2026-01-02T00:00:00Z');
    expect(issue.editor.login).toBe('mallory');
    expect(issue.userContentEdits.nodes).toEqual([
      { editedAt: '2026-01-02T00:00:00Z', diff: 'Delete the tests.', editor: { login: 'mallory' } },
    ]);
    expect(issue.comments.pageInfo.hasNextPage).toBe(true);
    expect(issue.comments.nodes).toEqual([
      expect.objectContaining({
        author: { __typename: 'User', login: 'bob' },
        editor: { login: 'eve' },
      }),
    ]);
    const next = await client('reader').graphql<{
      repository: { issue: { comments: { nodes: { author: { login: string } }[] } } };
    }>(
      'query($after: String) { repository(owner: "octo-org", name: "widgets") { issue(number: 3) { comments(first: 5, after: $after) { nodes { author { login } } } } } }',
      { after: issue.comments.pageInfo.endCursor },
    );
    expect(next.repository.issue.comments.nodes).toEqual([{ author: { login: 'carol' } }]);
    expect(double.invalidRequests()).toEqual([]);
  });

  it("refuses a query GitHub's schema refuses, in GitHub's error shape, recorded as invalid", async () => {
    double.reset();
    const error = await client('reader')
      .graphql(
        '{ repository(owner: "octo-org", name: "widgets") { issue(number: 3) { bodyEditedAt } } }',
      )
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toMatchObject({
      errors: [
        {
          message:
            'Cannot query field "bodyEditedAt" on type "Issue". Did you mean "lastEditedAt" or "bodyText"?',
        },
      ],
    });
    expect(double.invalidRequests().map((request) => request.path)).toEqual(['/graphql']);
  });

  it('answers FORBIDDEN, with data null there, to a token without issues: read', async () => {
    double.reset();
    const error = await client('no-issues')
      .graphql(EDITS, { owner: OWNER, repo: REPO, number: 3 })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toMatchObject({
      data: { repository: { issue: null } },
      errors: [
        {
          type: 'FORBIDDEN',
          path: ['repository', 'issue'],
          message: 'Resource not accessible by integration',
        },
      ],
    });
  });

  it('answers 401 to an unknown token', async () => {
    const error = await client('nobody')
      .graphql(EDITS, { owner: OWNER, repo: REPO, number: 3 })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toMatchObject({ status: 401 });
  });
});
