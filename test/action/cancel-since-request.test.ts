import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { BuilderDispatch } from '../../src/action/builder-dispatch.js';
import { cancelled } from '../../src/action/tracking-comment.js';
import { builderRunComment } from '../../src/github/builder-run-comment.js';
import { createGitHubClient, type GitHubClient } from '../../src/github/github-client.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { type GitHubApiDouble, startGitHubApiDouble } from '../support/github-api-double/index.js';

const OWNER = 'octo';
const REPO = 'service';
const TOKEN = 'publish-job';
const APP_BOT = { login: 'aureus[bot]', id: 9101, type: 'Bot' as const };
const WRITER = { login: 'wren', id: 7303, type: 'User' as const };
const READER = { login: 'rhea', id: 7304, type: 'User' as const };
const RUN_ID = 'a1b2c3d4e5f6';

let restoreGit: () => Promise<void>;
let double: GitHubApiDouble;
let client: GitHubClient;
let repo: Repo & { remove(): Promise<void> };
let clock = Date.parse('2026-11-27T10:00:00Z');
let nextIssue = 1;

/** Comments the App, the writer and a reader leave on one issue, a minute apart. */
function issueWith(...comments: Array<{ user: typeof WRITER | typeof APP_BOT; body: string }>) {
  const issue = nextIssue++;
  const ids = comments.map((comment) => {
    clock += 60_000;
    return double.addIssueComment({ owner: OWNER, repo: REPO, issueNumber: issue, ...comment });
  });
  return { issue, ids };
}

function dispatchOf(issue: number, approval?: number): BuilderDispatch {
  return {
    repository: { owner: OWNER, repo: REPO },
    defaultBranch: 'main',
    issue,
    snapshot: '0'.repeat(64),
    requester: 7001,
    runId: RUN_ID,
    dispatcher: APP_BOT.id,
    ...(approval === undefined ? {} : { approval, resumeFrom: 4711 }),
  };
}

const tracking = {
  user: APP_BOT,
  body: builderRunComment(RUN_ID, 'stopped', 'for want of budget'),
};
const cancel = { user: WRITER, body: '/aureus cancel' };
const approve = { user: WRITER, body: '/aureus approve-budget $5' };

beforeAll(async () => {
  restoreGit = await isolateGit();
  repo = await makeRepo('cancel-since');
  repo.write('a.txt', 'one\n');
  repo.commit('base');
  double = await startGitHubApiDouble({ now: () => new Date(clock) });
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: repo.dir });
  double.addToken(TOKEN, { metadata: 'read', issues: 'write' });
  double.setPermission(OWNER, REPO, WRITER, 'write');
  double.setPermission(OWNER, REPO, READER, 'read');
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

describe('whether a builder run was cancelled on its issue', () => {
  it('counts a writer’s /aureus cancel written after the run’s tracking comment', async () => {
    const { issue } = issueWith(tracking, cancel);
    expect(await cancelled(client, dispatchOf(issue))).toBe(true);
  });

  it('does not let a cancel written while the run was stopped stop the continuation a writer approved after it', async () => {
    const { issue, ids } = issueWith(tracking, cancel, approve);
    expect(await cancelled(client, dispatchOf(issue, ids[2]))).toBe(false);
    // A cancel after the approval is this continuation's.
    clock += 60_000;
    double.addIssueComment({ owner: OWNER, repo: REPO, issueNumber: issue, ...cancel });
    expect(await cancelled(client, dispatchOf(issue, ids[2]))).toBe(true);
  });

  it('looks up each author’s role once, however many cancels they write', async () => {
    const flood = Array.from({ length: 30 }, () => ({ user: READER, body: '/aureus cancel' }));
    const { issue } = issueWith(tracking, ...flood);
    const before = double.callsTo('repos/get-collaborator-permission-level').length;
    expect(await cancelled(client, dispatchOf(issue))).toBe(false);
    expect(double.callsTo('repos/get-collaborator-permission-level').length - before).toBe(1);
  });
});
