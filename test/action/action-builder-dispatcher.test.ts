import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { triggerRunId } from '../../src/github/builder-trigger.js';
import { escapeMarkdown } from '../../src/report/markdown-escape.js';
import {
  type ScriptedModelServer,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';
import { objectAt } from '../support/webhook-examples.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  type BuilderScenario,
  builderDispatchEvent,
  ISSUE,
  makeBuilderScenario,
  REQUESTER,
  RUN_ID,
} from './support/builder-scenario.js';
import { type BuilderStepRun, runBuilderStep } from './support/builder-step-runner.js';
import { OWNER, REPO } from './support/pull-request-scenario.js';

/**
 * No dispatcher is trusted for what its account is: a dispatch of the builder workflow by any
 * GitHub App's bot other than AUREUS's (a CI bot, a dependency bot, a compromised App installed
 * with actions: write) meets the checks the AUREUS App's own dispatches meet, and is refused
 * before any model request when it names no trigger, a trigger it forged, or a continuation
 * no writer approved.
 */

const BUILD_TOKEN = 'build-job-token-Disp4Kq8Wm2R';
const API_KEY = 'sk-ant-test-Dq48Lm2VxZc7Hn-0000';
/** Another App's bot: `sender.type` Bot, an id that is not AUREUS's. */
const OTHER_APP_BOT = { login: 'ci-helper[bot]', id: 31337, type: 'Bot' as const };

const session = useActionTestSession({
  [BUILD_TOKEN]: { contents: 'read', issues: 'read', actions: 'read', pull_requests: 'read' },
});

let model: ScriptedModelServer;
const scenarios: BuilderScenario[] = [];

beforeAll(async () => {
  model = await startScriptedModelServer();
});

afterAll(async () => {
  await model.close();
  for (const scenario of scenarios) await scenario.remove();
});

async function scenario(extra: readonly string[] = []): Promise<BuilderScenario> {
  const policy = [
    ...extra,
    'version: 1',
    'model_provider:',
    '  provider: anthropic',
    `  base_url: ${model.url}`,
    '',
  ].join('\n');
  const made = await makeBuilderScenario(session.double, policy);
  scenarios.push(made);
  return made;
}

/** The builder step on a workflow_dispatch sent by another App's bot, with the inputs given. */
function buildAsOtherApp(
  made: BuilderScenario,
  inputs: Record<string, string>,
  stage = 'plan',
): Promise<BuilderStepRun> {
  const event = builderDispatchEvent(made);
  Object.assign(objectAt(event, 'inputs'), inputs);
  Object.assign(objectAt(event, 'sender'), OTHER_APP_BOT);
  return runBuilderStep({
    runnerDir: made.runnerDir,
    workspace: made.buildWorkspace,
    event,
    sha: made.baseSha,
    apiUrl: session.double.url,
    jobToken: BUILD_TOKEN,
    inputs: { stage, 'resume-dir': join(made.runnerDir, 'resume') },
    stepEnv: { ANTHROPIC_API_KEY: API_KEY, GITHUB_RUN_ID: '31999999' },
  });
}

function refusedBeforeAnyModel(made: BuilderScenario, run: BuilderStepRun, before: number): void {
  expect(run.exitCode).toBe(2);
  expect(model.requests.length).toBe(before);
  expect(existsSync(join(made.buildWorkspace, 'aureus-run', 'report.json'))).toBe(false);
}

describe('a builder dispatch by another GitHub App', () => {
  it('is refused without a trigger, whatever issue, requester and budget it names', async () => {
    const made = await scenario();
    const before = model.requests.length;
    const run = await buildAsOtherApp(made, { trigger: '', budget_usd: '9' });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain(
      'the builder workflow was dispatched without the trigger it answers (the dispatch input trigger)',
    );
  });

  it('is refused with a trigger it wrote itself, or a writer’s trigger in the requester’s name', async () => {
    const made = await scenario();
    // The App's bot comments /aureus implement itself and names it, in the requester's name.
    const own = session.double.addIssueComment({
      owner: OWNER,
      repo: REPO,
      issueNumber: ISSUE,
      user: OTHER_APP_BOT,
      body: '/aureus implement',
    });
    const ownRun = triggerRunId({ owner: OWNER, repo: REPO }, ISSUE, { kind: 'comment', id: own });
    let before = model.requests.length;
    let run = await buildAsOtherApp(made, { trigger: `comment-${own}`, run_id: ownRun });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain(
      `the dispatch names account ${REQUESTER} as the requester, and its trigger comment-${own} is by account ${OTHER_APP_BOT.id}.`,
    );
    // The requester's real trigger, with a run id of the App's choosing: one trigger, one run.
    before = model.requests.length;
    run = await buildAsOtherApp(made, { run_id: '0123456789ab' });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain(`starts run ${RUN_ID}, not run 0123456789ab`);
  });

  it('cannot continue a run: without an approval, with a start trigger, or with a forged approval', async () => {
    const made = await scenario();
    const stopped = session.double.addWorkflowRun(OWNER, REPO, {
      workflow: 'aureus-builder.yml',
      createdAt: '2026-01-02T00:00:00Z',
      actor: { login: 'aureus[bot]', id: 77, type: 'Bot' },
      inputs: {},
    });
    session.double.completeWorkflowRun(OWNER, REPO, stopped, '2026-01-02T00:10:00Z');
    // A continuation naming the requester's start trigger instead of an approval.
    let before = model.requests.length;
    let run = await buildAsOtherApp(made, { resume_from: String(stopped), budget_usd: '9' });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain(
      `the dispatch goes on from workflow run ${stopped} (resume_from), and names a comment as its trigger, not the /aureus approve-budget comment`,
    );
    // An approval with no stopped run.
    before = model.requests.length;
    run = await buildAsOtherApp(made, { trigger: 'approval-999001', budget_usd: '9' });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain('and no stopped run to go on from (resume_from)');
    // The requester approving their own run, by the App's bot's dispatch.
    const selfApproval = session.double.addIssueComment({
      owner: OWNER,
      repo: REPO,
      issueNumber: ISSUE,
      user: { login: 'ada', id: REQUESTER, type: 'User' },
      body: '/aureus approve-budget $9',
    });
    before = model.requests.length;
    run = await buildAsOtherApp(made, {
      trigger: `approval-${selfApproval}`,
      resume_from: String(stopped),
      budget_usd: '9',
    });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain(
      `is by the requester (account ${REQUESTER}), who may not raise their own budget`,
    );
    // A writer's genuine approval of $2, carried with a budget of $9.
    const writer = { login: 'grace', id: 5151, type: 'User' as const };
    session.double.setPermission(OWNER, REPO, writer, 'write');
    const approval = session.double.addIssueComment({
      owner: OWNER,
      repo: REPO,
      issueNumber: ISSUE,
      user: writer,
      body: '/aureus approve-budget $2',
    });
    before = model.requests.length;
    run = await buildAsOtherApp(made, {
      trigger: `approval-${approval}`,
      resume_from: String(stopped),
      budget_usd: '9',
    });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain('approves $2, not the budget the dispatch carries');
    // The same approval with its own amount: the stopped run is the AUREUS App's, not this App's.
    before = model.requests.length;
    run = await buildAsOtherApp(made, {
      trigger: `approval-${approval}`,
      resume_from: String(stopped),
      budget_usd: '2',
    });
    refusedBeforeAnyModel(made, run, before);
    expect(run.stdout).toContain('the stopped run cannot be continued');
    expect(run.stdout).toContain(
      'it was started by "aureus[bot]", not by the App that dispatched this run',
    );
  });
});

describe("the day's caps, counted again where the run starts", () => {
  it("refuses a dispatch the day's earlier runs leave no room for, saying the cap, the spend and when it fits", async () => {
    const made = await scenario([
      'cost_thresholds:',
      '  max_usd_per_run: 2',
      '  max_usd_per_day: 5',
    ]);
    // Two runs dispatched in the last day, which no dispatcher counted with this one (this App's
    // dispatch, or a trigger dispatched again): each may spend $2, this one $2 more.
    const now = Date.now();
    const oldest = new Date(now - 3 * 60 * 60 * 1000).toISOString();
    for (const createdAt of [oldest, new Date(now - 60 * 60 * 1000).toISOString()])
      session.double.addWorkflowRun(OWNER, REPO, {
        workflow: 'aureus-builder.yml',
        createdAt,
        actor: OTHER_APP_BOT,
      });
    const before = model.requests.length;
    const run = await buildAsOtherApp(made, {});
    refusedBeforeAnyModel(made, run, before);
    const said = `cost_thresholds.max_usd_per_day ($5) is reached: the 2 runs of aureus-builder.yml dispatched in the 24 hours before this one may spend up to $4 (each at its whole max_usd_per_run, $2), and this run up to $2. It fits from ${new Date(Date.parse(oldest) + 24 * 60 * 60 * 1000).toISOString()}, when enough of them are a day old.`;
    expect(run.stdout).toContain(said);
    expect(run.summary).toContain(escapeMarkdown(said));
  });
});
