import { describe, expect, it } from '@jest/globals';
import { triggerRunId } from '../../src/github/builder-trigger.js';
import { objectAt } from '../support/webhook-examples.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  OWNER,
  pullRequestEvent,
  pullRequestReviewEvent,
  pushToFeature,
  REPO,
  type Scenario,
} from './support/pull-request-scenario.js';

const PR_TOKEN = 'ghs_builder_pull_request_job';
const ISSUE = 5;
/** Each pull request's branch, named for the run its requester's trigger started. */
const branches = new Map<number, string>();
/** The publish job's account: the Action's builder pull requests are opened by the job token. */
const ACTIONS_BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' as const };
const REQUESTER = { login: 'ada', id: 4242 };
const WRITER = { login: 'wren', id: 7202 };
const LABELER = { login: 'lior', id: 7203 };
const SECOND = { login: 'sol', id: 7204 };
const NEEDS_SOMEONE_ELSE =
  'needs approving reviews of this commit by 2 people with write access other than the requester and the author';

const session = useActionTestSession({
  [PR_TOKEN]: {
    contents: 'read',
    metadata: 'read',
    pull_requests: 'write',
    checks: 'write',
    issues: 'read',
  },
});

/**
 * The builder's pull request `number` as the Action publishes it: a small change on the branch
 * `aureus/issue-5-<run>`, opened by github-actions[bot], for a run `ada` asked for with
 * `/aureus implement` on issue #5; `wren` and `lior` have write access too.
 */
async function builderPull(number: number): Promise<Scenario> {
  const scenario = await session.scenario((origin) =>
    origin.write('src/greet.ts', 'export const greet = (): string => "hello";\n'),
  );
  for (const person of [REQUESTER, WRITER, LABELER, SECOND])
    session.double.setPermission(OWNER, REPO, person, 'write');
  const trigger = session.double.addIssueComment({
    owner: OWNER,
    repo: REPO,
    issueNumber: ISSUE,
    user: REQUESTER,
    body: '/aureus implement',
  });
  const runId = triggerRunId({ owner: OWNER, repo: REPO }, ISSUE, { kind: 'comment', id: trigger });
  branches.set(number, `aureus/issue-${ISSUE}-${runId}`);
  openPull(scenario, number);
  return scenario;
}

function openPull(scenario: Scenario, number: number): void {
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number,
    baseSha: scenario.baseSha,
    headSha: scenario.headSha,
    headRef: branches.get(number) ?? '',
    user: ACTIONS_BOT,
  });
}

function approve(number: number, user: { login: string; id: number }, commitId: string): void {
  session.double.addReview({
    owner: OWNER,
    repo: REPO,
    pullNumber: number,
    user,
    state: 'APPROVED',
    commitId,
  });
}

function run(
  scenario: Scenario,
  number: number,
  eventName: 'pull_request' | 'pull_request_review' = 'pull_request',
): Promise<ActionRun> {
  const event =
    eventName === 'pull_request'
      ? pullRequestEvent(scenario, { number, action: 'synchronize' })
      : pullRequestReviewEvent(scenario, { number });
  Object.assign(objectAt(objectAt(event, 'pull_request'), 'head'), {
    ref: branches.get(number) ?? '',
  });
  return runAction({
    runnerDir: scenario.runnerDir,
    workspace: scenario.workspace,
    eventName,
    event,
    sha: scenario.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': PR_TOKEN },
  });
}

describe("the Action's check of the builder's pull request", () => {
  it('fails while only the requester approved its head, saying who must', async () => {
    const scenario = await builderPull(51);
    approve(51, REQUESTER, scenario.headSha);
    const checked = await run(scenario, 51, 'pull_request_review');
    expect(checked.exitCode).toBe(1);
    expect(checked.outputs.verdict).toBe('block');
    expect(checked.summary).toContain(NEEDS_SOMEONE_ELSE);
    expect(session.double.checkRuns(OWNER, REPO).at(-1)).toMatchObject({
      headSha: scenario.headSha,
      conclusion: 'failure',
    });
  });

  it("passes on two other writers' approvals of its head, and a new push needs new ones", async () => {
    const scenario = await builderPull(52);
    approve(52, WRITER, scenario.headSha);
    approve(52, SECOND, scenario.headSha);
    const approved = await run(scenario, 52, 'pull_request_review');
    expect(approved.exitCode).toBe(0);
    expect(approved.stdout).toContain('@sol and @wren approved this commit');

    pushToFeature(scenario, (origin) => origin.write('src/note.ts', 'export const n = 1;\n'));
    openPull(scenario, 52);
    const pushed = await run(scenario, 52);
    expect(pushed.exitCode).toBe(1);
    expect(pushed.summary).toContain(NEEDS_SOMEONE_ELSE);
  });

  it('lets no writer who pushed to the builder branch approve their own commits alone', async () => {
    const scenario = await builderPull(53);
    // wren pushes a commit of their own onto the builder's branch, then approves the head.
    pushToFeature(scenario, (origin) => origin.write('src/note.ts', 'export const n = 1;\n'));
    openPull(scenario, 53);
    approve(53, WRITER, scenario.headSha);
    const alone = await run(scenario, 53, 'pull_request_review');
    expect(alone.exitCode).toBe(1);
    expect(alone.summary).toContain(NEEDS_SOMEONE_ELSE);
    expect(alone.summary).toContain('(so far @&#8203;wren)');
    expect(alone.summary).toContain('none approves their own alone');
  });

  it('keeps a requester who edited the command away after the run a requester', async () => {
    const scenario = await builderPull(54);
    const editor = { login: 'edda', id: 7204 };
    session.double.setPermission(OWNER, REPO, editor, 'write');
    const command = session.double.addIssueComment({
      owner: OWNER,
      repo: REPO,
      issueNumber: ISSUE,
      user: editor,
      body: '/aureus implement',
    });
    session.double.editIssueComment(OWNER, REPO, command, 'thanks!');
    approve(54, editor, scenario.headSha);
    const checked = await run(scenario, 54, 'pull_request_review');
    expect(checked.exitCode).toBe(1);
    expect(checked.summary).toContain(NEEDS_SOMEONE_ELSE);
  });

  it('counts whoever added the builder label as a requester too', async () => {
    const scenario = await builderPull(53);
    session.double.addIssueEvent({
      owner: OWNER,
      repo: REPO,
      issueNumber: ISSUE,
      actor: LABELER,
      label: 'aureus:implement',
    });
    approve(53, LABELER, scenario.headSha);
    const checked = await run(scenario, 53, 'pull_request_review');
    expect(checked.exitCode).toBe(1);
    expect(checked.summary).toContain(NEEDS_SOMEONE_ELSE);
  });
});

describe("the Action's check where the base branch's ruleset requires the last push's approval by another", () => {
  const ONE_APPROVAL =
    'needs an approving review of this commit by a person with write access other than the requester and the author';
  const RULESET_SAYS =
    'requires the most recent push to be approved by someone other than its pusher, so one approval serves both.';

  it("passes on one other writer's approval of its head, saying the ruleset is why", async () => {
    const scenario = await builderPull(61);
    session.double.addPullRequestRule(OWNER, REPO, 'main', {
      requiredApprovingReviewCount: 1,
      requireLastPushApproval: true,
      rulesetId: 3,
    });
    approve(61, WRITER, scenario.headSha);
    const approved = await run(scenario, 61, 'pull_request_review');
    expect(approved.exitCode).toBe(0);
    expect(approved.stdout).toContain('@wren approved this commit.');
    expect(approved.stdout).toContain(`the ruleset 3 of ${OWNER}/${REPO} on main ${RULESET_SAYS}`);
  });

  it("still refuses the requester's approval alone, asking for one other", async () => {
    const scenario = await builderPull(62);
    session.double.addPullRequestRule(OWNER, REPO, 'main', {
      requiredApprovingReviewCount: 1,
      requireLastPushApproval: true,
    });
    approve(62, REQUESTER, scenario.headSha);
    const checked = await run(scenario, 62, 'pull_request_review');
    expect(checked.exitCode).toBe(1);
    expect(checked.summary).toContain(ONE_APPROVAL);
  });

  it('keeps two where the ruleset requires no approval of the last push, or no approval at all', async () => {
    const scenario = await builderPull(63);
    session.double.addPullRequestRule(OWNER, REPO, 'main', {
      requiredApprovingReviewCount: 2,
      requireLastPushApproval: false,
    });
    session.double.addPullRequestRule(OWNER, REPO, 'main', {
      requiredApprovingReviewCount: 0,
      requireLastPushApproval: true,
    });
    approve(63, WRITER, scenario.headSha);
    const checked = await run(scenario, 63, 'pull_request_review');
    expect(checked.exitCode).toBe(1);
    expect(checked.summary).toContain(NEEDS_SOMEONE_ELSE);
  });

  it.each([403, 404])(
    'keeps two when the rulesets lookup answers %i, and says so',
    async (status) => {
      const scenario = await builderPull(64);
      session.double.addPullRequestRule(OWNER, REPO, 'main', {
        requiredApprovingReviewCount: 1,
        requireLastPushApproval: true,
      });
      session.double.failNext('repos/get-branch-rules', { status });
      approve(64, WRITER, scenario.headSha);
      const checked = await run(scenario, 64, 'pull_request_review');
      expect(checked.exitCode).toBe(1);
      expect(checked.summary).toContain(NEEDS_SOMEONE_ELSE);
      expect(checked.summary).toContain(
        `AUREUS could not read the rulesets of main (GitHub answered ${status}), so it keeps its own rule of two.`,
      );
    },
  );
});
