import { describe, expect, it } from '@jest/globals';
import { triggerRunId } from '../../src/github/builder-trigger.js';
import { objectAt } from '../support/webhook-examples.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  OWNER,
  pullRequestReviewEvent,
  REPO,
  type Scenario,
} from './support/pull-request-scenario.js';

/**
 * Who asked for a builder run, as the Action's check knows it: the author of the trigger the
 * run's id is derived from. A requester who deletes their trigger comment once the pull request
 * is open does not drop out of it: who asked is then unknown and the check blocks, so they
 * cannot approve their own run's pull request.
 */

const PR_TOKEN = 'ghs_builder_requester_job';
const ISSUE = 5;
const ACTIONS_BOT = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' as const };
const REQUESTER = { login: 'ada', id: 4242 };
const WRITER = { login: 'wren', id: 7202 };

const session = useActionTestSession({
  [PR_TOKEN]: {
    contents: 'read',
    metadata: 'read',
    pull_requests: 'write',
    checks: 'write',
    issues: 'read',
  },
});

/** The builder's pull request for the run `ada`'s `/aureus implement` started; its trigger id. */
async function builderPull(number: number): Promise<{ scenario: Scenario; trigger: number }> {
  const scenario = await session.scenario((origin) =>
    origin.write('src/greet.ts', 'export const greet = (): string => "hello";\n'),
  );
  for (const person of [REQUESTER, WRITER])
    session.double.setPermission(OWNER, REPO, person, 'write');
  const trigger = session.double.addIssueComment({
    owner: OWNER,
    repo: REPO,
    issueNumber: ISSUE,
    user: REQUESTER,
    body: '/aureus implement',
  });
  const runId = triggerRunId({ owner: OWNER, repo: REPO }, ISSUE, { kind: 'comment', id: trigger });
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number,
    baseSha: scenario.baseSha,
    headSha: scenario.headSha,
    headRef: `aureus/issue-${ISSUE}-${runId}`,
    user: ACTIONS_BOT,
  });
  for (const user of [REQUESTER, WRITER])
    session.double.addReview({
      owner: OWNER,
      repo: REPO,
      pullNumber: number,
      user,
      state: 'APPROVED',
      commitId: scenario.headSha,
    });
  return { scenario, trigger };
}

function check(scenario: Scenario, number: number, runId: string): Promise<ActionRun> {
  const event = pullRequestReviewEvent(scenario, { number });
  Object.assign(objectAt(objectAt(event, 'pull_request'), 'head'), {
    ref: `aureus/issue-${ISSUE}-${runId}`,
  });
  return runAction({
    runnerDir: scenario.runnerDir,
    workspace: scenario.workspace,
    eventName: 'pull_request_review',
    event,
    sha: scenario.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': PR_TOKEN },
  });
}

describe('the requester of a builder pull request, with the Action', () => {
  it('stays unknown, and the check blocks, once the requester deleted their trigger comment', async () => {
    const { scenario, trigger } = await builderPull(61);
    const runId = triggerRunId({ owner: OWNER, repo: REPO }, ISSUE, {
      kind: 'comment',
      id: trigger,
    });
    // Their approval and another writer's: with the trigger there, only the other one counts.
    const before = await check(scenario, 61, runId);
    expect(before.exitCode).toBe(1);
    expect(before.summary).toContain('(so far @&#8203;wren)');
    // The requester deletes the trigger: their approval must not start counting.
    session.double.deleteIssueComment(OWNER, REPO, trigger);
    const after = await check(scenario, 61, runId);
    expect(after.exitCode).toBe(1);
    // Before the fix both approvals counted once the trigger was gone: the check passed.
    expect(after.outputs.verdict).toBe('block');
    expect(after.summary).toContain(`builder pull request (issue #&#8203;${ISSUE}, run ${runId})`);
  });

  it('says, for a branch no trigger started, that no trigger derives its run id and how to start one', async () => {
    // A branch named like the builder's, pushed by hand (or left by a run whose id no trigger
    // derives): the issue's trigger is genuine but derives another run id.
    const { scenario } = await builderPull(62);
    const runId = '0123456789ab';
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 62,
      baseSha: scenario.baseSha,
      headSha: scenario.headSha,
      headRef: `aureus/issue-${ISSUE}-${runId}`,
      user: WRITER,
    });
    const checked = await check(scenario, 62, runId);
    expect(checked.exitCode).toBe(1);
    expect(checked.outputs.verdict).toBe('block');
    expect(checked.summary).toContain(
      `no /aureus implement comment or aureus:implement label event on issue #&#8203;${ISSUE} derives run id ${runId}, so this branch was not started by a trigger AUREUS can verify and who asked is unknown. Start a new run with /aureus implement on issue #&#8203;${ISSUE}.`,
    );
    expect(checked.summary).not.toContain('was deleted');
  });
});
