import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BUILDER_SELF_APPROVAL_REPLY } from '../../src/bot/builder/builder-pull.js';
import { codeLines } from '../action/support/pull-request-scenario.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';
import { commentPayload, inRepository, OWNER, pullRequestPayload } from './support/app-payloads.js';
import { type AppSession, startAppSession } from './support/app-session.js';

const REPOSITORY = { name: 'built-pulls', id: 6201 };
const WORKFLOW = `name: AUREUS builder
on:
  workflow_dispatch:
    inputs:
      issue: { required: true }
      snapshot: { required: true }
      requester: { required: true }
      run_id: { required: true }
      trigger: { required: false }
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: echo build
`;
const REQUESTER = { login: 'rhea', id: 9301, type: 'User' as const };
const REVIEWER = { login: 'remy', id: 9302, type: 'User' as const };
const SECOND_REVIEWER = { login: 'rosa', id: 9304, type: 'User' as const };
const READER = { login: 'rory', id: 9303, type: 'User' as const };
/** Who `mode: publish` opens the pull request as: the workflow's token. */
const ACTIONS_BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' as const };

let restoreGit: () => Promise<void>;
let session: AppSession;
let origin: Repo & { remove(): Promise<void> };
let baseSha: string;

beforeAll(async () => {
  restoreGit = await isolateGit();
  session = await startAppSession(OWNER);
  origin = await makeRepo('builder-pulls');
  origin.write('.aureus/policy.yaml', 'version: 1\nintegrations:\n  app:\n    builder: true\n');
  origin.write('.github/workflows/aureus-builder.yml', WORKFLOW);
  origin.write('src/core.ts', codeLines('core', 3));
  baseSha = origin.commit('base');
  session.double.addRepository({
    owner: OWNER,
    repo: REPOSITORY.name,
    gitDir: origin.dir,
    defaultBranch: 'main',
  });
  session.double.setPermission(OWNER, REPOSITORY.name, REQUESTER, 'maintain');
  session.double.setPermission(OWNER, REPOSITORY.name, REVIEWER, 'write');
  session.double.setPermission(OWNER, REPOSITORY.name, SECOND_REVIEWER, 'write');
  session.double.setPermission(OWNER, REPOSITORY.name, READER, 'read');
});

beforeEach(() => session.double.reset());

afterAll(async () => {
  await session.close();
  await origin.remove();
  await restoreGit();
});

async function send(event: string, payload: Record<string, unknown>): Promise<void> {
  expect(await session.send(event, inRepository(payload, REPOSITORY))).toBe(200);
  await session.app.idle();
  expect(session.double.invalidRequests()).toEqual([]);
  expect(session.double.forbiddenRequests()).toEqual([]);
  expect(session.double.unexpectedRequests()).toEqual([]);
}

/** `/aureus implement` by the requester on `issue`: the App dispatches a run; its id. */
async function requestRun(issue: number): Promise<string> {
  await send(
    'issue_comment',
    commentPayload(issue, '/aureus implement', REQUESTER, { onPullRequest: false }),
  );
  const body = JSON.stringify(
    session.double.callsTo('actions/create-workflow-dispatch').at(-1)?.body,
  );
  const runId = body.match(/"run_id":"([0-9a-f]{12})"/)?.[1];
  if (runId === undefined) throw new Error('the App dispatched no run');
  return runId;
}

/** The run's work on its branch, opened as pull request `number` by the workflow's token. */
async function openBuilderPull(
  number: number,
  branch: string,
  line: string,
  baseRef = 'main',
): Promise<string> {
  origin.git('checkout', '--quiet', '-B', branch, baseSha);
  origin.write('src/feature.ts', `export const feature = '${line}';\n`);
  const headSha = origin.commit(line);
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPOSITORY.name,
    number,
    baseSha,
    headSha,
    headRef: branch,
    baseRef,
    user: ACTIONS_BOT,
  });
  await send('pull_request', pullRequestPayload('opened', { number, baseSha, headSha }));
  return headSha;
}

async function review(
  number: number,
  headSha: string,
  user: typeof REVIEWER,
  branch: string,
): Promise<void> {
  session.double.addReview({
    owner: OWNER,
    repo: REPOSITORY.name,
    pullNumber: number,
    user,
    state: 'APPROVED',
    commitId: headSha,
  });
  const payload = webhookExample('pull_request_review', 'submitted');
  const pull = objectAt(payload, 'pull_request');
  Object.assign(pull, { number });
  Object.assign(objectAt(pull, 'head'), { sha: headSha, ref: branch });
  Object.assign(objectAt(payload, 'repository'), { owner: { login: OWNER } });
  payload.installation = { id: 777, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc3' };
  await send('pull_request_review', payload);
}

function conclusions(headSha: string): (string | null)[] {
  return session.double
    .checkRuns(OWNER, REPOSITORY.name)
    .filter((run) => run.headSha === headSha)
    .map((run) => run.conclusion);
}

function lastSummary(headSha: string): string {
  return (
    session.double
      .checkRuns(OWNER, REPOSITORY.name)
      .filter((run) => run.headSha === headSha)
      .at(-1)?.summary ?? ''
  );
}

describe("the builder's pull request, in the App", () => {
  it('refuses its requester as approver and fails until another writer approves its head', async () => {
    const runId = await requestRun(3);
    const branch = `aureus/issue-3-${runId}`;
    const head = await openBuilderPull(40, branch, 'first');
    expect(conclusions(head)).toEqual(['failure']);
    expect(lastSummary(head)).toContain('needs approving reviews of this commit by 2 people');

    await send('issue_comment', commentPayload(40, '/aureus approve-budget I asked', REQUESTER));
    expect(session.double.issueComments(OWNER, REPOSITORY.name, 40).at(-1)?.body).toBe(
      BUILDER_SELF_APPROVAL_REPLY,
    );
    await send('issue_comment', commentPayload(40, '/aureus approve-policy', REQUESTER));
    expect(session.double.issueComments(OWNER, REPOSITORY.name, 40).at(-1)?.body).toBe(
      BUILDER_SELF_APPROVAL_REPLY,
    );
    expect(conclusions(head)).toEqual(['failure']);

    // The requester's own review and a reader's approve nothing.
    await review(40, head, REQUESTER, branch);
    await review(40, head, READER, branch);
    expect(conclusions(head).at(-1)).toBe('failure');

    // One writer's approval is not enough: they may have pushed commits after the builder's.
    await review(40, head, REVIEWER, branch);
    expect(conclusions(head).at(-1)).toBe('failure');
    expect(lastSummary(head)).toContain('(so far @');
    await review(40, head, SECOND_REVIEWER, branch);
    expect(conclusions(head).at(-1)).toBe('success');

    // A new push needs a new approval: the review was of the commit the reviewer saw.
    origin.write('src/feature.ts', "export const feature = 'second';\n");
    const next = origin.commit('second');
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPOSITORY.name,
      number: 40,
      baseSha,
      headSha: next,
      headRef: branch,
      user: ACTIONS_BOT,
    });
    await send(
      'pull_request',
      pullRequestPayload('synchronize', { number: 40, baseSha, headSha: next }),
    );
    expect(conclusions(next)).toEqual(['failure']);
  });

  it('needs the approval also when the App knows no run of the branch', async () => {
    const head = await openBuilderPull(41, 'aureus/issue-9-0123456789ab', 'unknown run');
    expect(conclusions(head)).toEqual(['failure']);
    expect(lastSummary(head)).toContain('needs approving reviews of this commit by 2 people');
  });

  it("asks one approval where the base branch's ruleset requires the last push's approval by another", async () => {
    // A branch of its own, so the ruleset binds this pull request alone.
    session.double.addPullRequestRule(OWNER, REPOSITORY.name, 'release', {
      requiredApprovingReviewCount: 1,
      requireLastPushApproval: true,
      rulesetId: 7,
    });
    const runId = await requestRun(4);
    const branch = `aureus/issue-4-${runId}`;
    const head = await openBuilderPull(43, branch, 'ruled', 'release');
    expect(conclusions(head)).toEqual(['failure']);
    expect(lastSummary(head)).toContain(
      'needs an approving review of this commit by a person with write access other than the requester and the author',
    );
    expect(session.double.callsTo('repos/get-branch-rules').at(-1)?.path).toBe(
      `/repos/${OWNER}/${REPOSITORY.name}/rules/branches/release`,
    );

    // The requester still approves nothing; one independent writer is enough, GitHub's rule
    // keeping anyone who pushed from merging on their own approval.
    await review(43, head, REQUESTER, branch);
    expect(conclusions(head).at(-1)).toBe('failure');
    await review(43, head, REVIEWER, branch);
    expect(conclusions(head).at(-1)).toBe('success');
    expect(lastSummary(head)).toContain(
      `the ruleset 7 of ${OWNER}/${REPOSITORY.name} on release requires the most recent push to be approved by someone other than its pusher, so one approval serves both.`,
    );
  });

  it('keeps two approvals when the rulesets cannot be read', async () => {
    session.double.addPullRequestRule(OWNER, REPOSITORY.name, 'release-2', {
      requiredApprovingReviewCount: 1,
      requireLastPushApproval: true,
    });
    const runId = await requestRun(6);
    const branch = `aureus/issue-6-${runId}`;
    session.double.failNext('repos/get-branch-rules', { status: 403 });
    const head = await openBuilderPull(44, branch, 'unread', 'release-2');
    expect(conclusions(head)).toEqual(['failure']);
    expect(lastSummary(head)).toContain('needs approving reviews of this commit by 2 people');
    expect(lastSummary(head)).toContain(
      'AUREUS could not read the rulesets of release-2 (GitHub answered 403), so it keeps its own rule of two.',
    );
  });
});
