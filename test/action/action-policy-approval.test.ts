import { describe, expect, it } from '@jest/globals';
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

const PR_TOKEN = 'ghs_pull_request_job';
/** The repository's policy (SMALL_BUDGET_POLICY) with its per-change block raised tenfold. */
const LOOSENED = 'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 600\n';
const SETTING = 'budgets.change.block: 60 → 600';
const ADMIN = { login: 'ada', id: 7201 };
const WRITER = { login: 'wren', id: 7202 };

const session = useActionTestSession({
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

let made: Scenario | undefined;

/** One pull request branch that only loosens the policy (it costs nothing), opened as `number`. */
async function loosening(number: number): Promise<Scenario> {
  made ??= await session.scenario((origin) => origin.write('.aureus/policy.yaml', LOOSENED));
  session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
  session.double.setPermission(OWNER, REPO, WRITER, 'write');
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number,
    baseSha: made.baseSha,
    headSha: made.headSha,
  });
  return made;
}

function review(
  number: number,
  user: { login: string; id: number },
  state: 'APPROVED' | 'DISMISSED',
  commitId: string,
): void {
  session.double.addReview({ owner: OWNER, repo: REPO, pullNumber: number, user, state, commitId });
}

function run(
  scenario: Scenario,
  number: number,
  eventName: 'pull_request' | 'pull_request_review' = 'pull_request',
  inputs: Record<string, string> = {},
): Promise<ActionRun> {
  return runAction({
    runnerDir: scenario.runnerDir,
    workspace: scenario.workspace,
    eventName,
    event:
      eventName === 'pull_request'
        ? pullRequestEvent(scenario, { number, action: 'synchronize' })
        : pullRequestReviewEvent(scenario, { number }),
    sha: scenario.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': PR_TOKEN, ...inputs },
  });
}

describe('the Action on a pull request that loosens the policy', () => {
  it('fails without an approving review, naming the setting and how to approve', async () => {
    const scenario = await loosening(31);
    const blocked = await run(scenario, 31);
    expect(blocked.exitCode).toBe(1);
    expect(blocked.outputs.verdict).toBe('block');
    expect(blocked.outputs['total-cost']).toBe('0');
    expect(blocked.summary).toContain(SETTING);
    expect(blocked.summary).toContain('approves this commit in a review of the pull request');
    expect(session.double.checkRuns(OWNER, REPO).at(-1)?.summary).toContain(SETTING);
  });

  it('fails whatever causes fail-on names, and passes only under fail-on: none', async () => {
    const scenario = await loosening(35);
    const budgetOnly = await run(scenario, 35, 'pull_request', { 'fail-on': 'budget' });
    expect(budgetOnly.exitCode).toBe(1);
    expect(budgetOnly.outputs.verdict).toBe('block');
    expect((await run(scenario, 35, 'pull_request', { 'fail-on': 'incomplete' })).exitCode).toBe(1);
    const none = await run(scenario, 35, 'pull_request', { 'fail-on': 'none' });
    expect(none.exitCode).toBe(0);
    expect(session.double.checkRuns(OWNER, REPO).at(-1)?.conclusion).toBe('neutral');
  });

  it('fails when the approval is by a write user, or was dismissed', async () => {
    const byWriter = await loosening(32);
    review(32, WRITER, 'APPROVED', byWriter.headSha);
    expect((await run(byWriter, 32)).exitCode).toBe(1);
    const dismissed = await loosening(33);
    review(33, ADMIN, 'DISMISSED', dismissed.headSha);
    expect((await run(dismissed, 33, 'pull_request_review')).exitCode).toBe(1);
  });

  it("passes on the review event of an admin's approval of the head, and fails again after a push", async () => {
    const scenario = await loosening(34);
    review(34, ADMIN, 'APPROVED', scenario.headSha);
    const approved = await run(scenario, 34, 'pull_request_review');
    expect(approved.exitCode).toBe(0);
    expect(approved.outputs.verdict).toBe('warn');
    expect(approved.summary).toContain('ada (maintain or admin) approved it for this commit');
    expect(session.double.checkRuns(OWNER, REPO).at(-1)).toMatchObject({
      headSha: scenario.headSha,
      conclusion: 'neutral',
    });

    // The approval was of the older commit: the new head needs one of its own.
    pushToFeature(scenario, (origin) => origin.write('src/note.ts', 'export const n = 1;\n'));
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 34,
      baseSha: scenario.baseSha,
      headSha: scenario.headSha,
    });
    const pushed = await run(scenario, 34);
    expect(pushed.exitCode).toBe(1);
    expect(pushed.summary).toContain(SETTING);
  });
});

/** A baseline that records three god classes nobody recorded at the base. */
const GROWN_BASELINE = `${JSON.stringify(
  {
    version: 1,
    findings: ['Alpha', 'Beta', 'Gamma'].map((name) => ({
      fingerprint: `god_class:src/${name}.ts#${name}`,
      ruleId: 'god_class',
      path: `src/${name}.ts`,
      symbol: name,
      measured: 900,
    })),
  },
  null,
  2,
)}\n`;

describe('the Action on a pull request that only adds entries to the baseline', () => {
  it('fails as a loosening until an admin approves its head', async () => {
    const scenario = await session.scenario((origin) =>
      origin.write('.aureus/baseline.json', GROWN_BASELINE),
    );
    session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 41,
      baseSha: scenario.baseSha,
      headSha: scenario.headSha,
    });
    const blocked = await run(scenario, 41);
    expect(blocked.exitCode).toBe(1);
    expect(blocked.outputs.verdict).toBe('block');
    expect(blocked.summary).toContain('baseline: +3 findings');

    review(41, ADMIN, 'APPROVED', scenario.headSha);
    const approved = await run(scenario, 41, 'pull_request_review');
    expect(approved.exitCode).toBe(0);
    expect(approved.summary).toContain('ada (maintain or admin) approved it for this commit');
  });
});
