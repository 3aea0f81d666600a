import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { builderRunComment } from '../../src/github/builder-run-comment.js';
import { runGit } from '../support/git-fixture.js';
import {
  type ScriptedModelServer,
  type ScriptedReply,
  startScriptedModelServer,
} from '../support/scripted-model-server.js';
import { objectAt } from '../support/webhook-examples.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  APP_BOT_ID,
  type BuilderScenario,
  builderDispatchEvent,
  ISSUE,
  makeBuilderScenario,
  RUN_ID,
} from './support/builder-scenario.js';
import { type BuilderStepRun, runBuilderStep } from './support/builder-step-runner.js';
import { OWNER, REPO } from './support/pull-request-scenario.js';

const BUILD_TOKEN = 'build-job-token-Cont7Hq2Zx9L';
const POST_TOKEN = 'ghs_postPlanJobTokenCont0000000000000000';
const PUBLISH_TOKEN = 'ghs_publishJobTokenCont00000000000000000';
const APP_TOKEN = 'ghs_appInstallationTokenCont000000000000';
/** Shares no run of characters with the plan's words: the agent refuses an input carrying one. */
const API_KEY = 'sk-ant-test-Vb37Nw0QzKx5Jr-0000';
const GREET = 'export function greet(): string {\n  return "hello";\n}\n';
const BRANCH = `aureus/issue-${ISSUE}-${RUN_ID}`;
const APP_BOT = { login: 'aureus[bot]', id: APP_BOT_ID, type: 'Bot' as const };

const session = useActionTestSession({
  // The plan job reads the stopped workflow run (actions: read) when the run goes on.
  [BUILD_TOKEN]: { contents: 'read', issues: 'read', actions: 'read', pull_requests: 'read' },
  [POST_TOKEN]: { contents: 'read', issues: 'write' },
  [PUBLISH_TOKEN]: { contents: 'write', pull_requests: 'write', issues: 'write' },
});

let model: ScriptedModelServer;
const scenarios: BuilderScenario[] = [];

beforeAll(async () => {
  model = await startScriptedModelServer();
  session.double.addToken(APP_TOKEN, { issues: 'write' }, { identity: APP_BOT });
});

afterAll(async () => {
  await model.close();
  for (const scenario of scenarios) await scenario.remove();
});

async function scenario(): Promise<BuilderScenario> {
  const policy = [
    'version: 1',
    'budgets:',
    '  change:',
    '    warn: 40',
    '    block: 60',
    'model_provider:',
    '  provider: anthropic',
    `  base_url: ${model.url}`,
    '',
  ].join('\n');
  const made = await makeBuilderScenario(session.double, policy);
  scenarios.push(made);
  const response = await fetch(
    `${session.double.url}/repos/${OWNER}/${REPO}/issues/${ISSUE}/comments`,
    {
      method: 'POST',
      headers: { authorization: `token ${APP_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: builderRunComment(RUN_ID, 'queued') }),
    },
  );
  expect(response.status).toBe(201);
  return made;
}

/** One workflow run of the builder as the App dispatched it, with its four jobs' folders. */
interface WorkflowRun {
  readonly id: number;
  readonly inputs: Record<string, string>;
  /** Its jobs' artifacts: aureus-plan, and aureus-run once the Act job ran. */
  readonly dir: string;
}

/** The App's dispatch of the builder workflow on main: GitHub records its bot as the actor. */
function dispatched(
  made: BuilderScenario,
  inputs: Record<string, string>,
  actor: { login: string; id: number; type: 'Bot' | 'User' } = APP_BOT,
  headBranch = 'main',
): WorkflowRun {
  const id = session.double.addWorkflowRun(OWNER, REPO, {
    workflow: 'aureus-builder.yml',
    createdAt: '2026-01-02T00:00:00Z',
    actor,
    headBranch,
    inputs,
  });
  return { id, inputs, dir: join(made.runnerDir, `workflow-run-${id}`) };
}

/** A writer other than the requester approves `amount` for the stop: GitHub records the stopped
 * run's end, then the comment; the continuation's dispatch names it as its trigger. */
function approve(stopped: WorkflowRun, amount: string): string {
  if (session.double.workflowRuns(OWNER, REPO).some((run) => run.id === stopped.id))
    session.double.completeWorkflowRun(OWNER, REPO, stopped.id, '2026-01-02T00:05:00Z');
  const writer = { login: 'grace', id: 5151, type: 'User' as const };
  session.double.setPermission(OWNER, REPO, writer, 'write');
  const id = session.double.addIssueComment({
    owner: OWNER,
    repo: REPO,
    issueNumber: ISSUE,
    user: writer,
    body: `/aureus approve-budget ${amount}`,
  });
  return `approval-${id}`;
}

function eventOf(made: BuilderScenario, run: WorkflowRun): Record<string, unknown> {
  const event = builderDispatchEvent(made);
  Object.assign(objectAt(event, 'inputs'), run.inputs);
  return event;
}

/** The builder step in a job of its own: its own depth-1 checkout of main. */
function builderJob(
  made: BuilderScenario,
  run: WorkflowRun,
  job: string,
  inputs: Record<string, string>,
): Promise<BuilderStepRun> {
  const workspace = join(run.dir, job);
  runGit(made.runnerDir, ['clone', '--quiet', '--depth', '1', `file://${made.bare}`, workspace]);
  return runBuilderStep({
    runnerDir: made.runnerDir,
    workspace,
    event: eventOf(made, run),
    sha: made.baseSha,
    apiUrl: session.double.url,
    jobToken: BUILD_TOKEN,
    inputs,
    stepEnv: {
      ANTHROPIC_API_KEY: API_KEY,
      GITHUB_SERVER_URL: made.serverUrl,
      GITHUB_RUN_ID: String(run.id),
    },
  });
}

function actionJob(
  made: BuilderScenario,
  run: WorkflowRun,
  mode: string,
  token: string,
  artifact: string,
): Promise<ActionRun> {
  return runAction({
    runnerDir: made.runnerDir,
    workspace: made.publishWorkspace,
    eventName: 'workflow_dispatch',
    event: eventOf(made, run),
    sha: made.baseSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': token, mode, 'output-dir': artifact },
    runnerEnv: { GITHUB_SERVER_URL: made.serverUrl },
  });
}

/**
 * The four jobs as the workflow runs them: plan (with the stopped run's artifacts in
 * `resume-dir` when the dispatch continues one), show-plan when the plan job says planned, act
 * after it, then publish over the plan's and the Act job's artifacts.
 */
async function workflow(made: BuilderScenario, run: WorkflowRun, resumeDir?: string) {
  const planned = await builderJob(made, run, 'plan', {
    stage: 'plan',
    ...(resumeDir === undefined ? {} : { 'resume-dir': resumeDir }),
  });
  expect(planned.exitCode).not.toBe(2);
  cpSync(join(run.dir, 'plan', 'aureus-run'), join(run.dir, 'aureus-plan'), { recursive: true });
  let acted: BuilderStepRun | null = null;
  let shown: ActionRun | null = null;
  if (planned.outputs.status === 'planned') {
    shown = await actionJob(made, run, 'post-plan', POST_TOKEN, join(run.dir, 'aureus-plan'));
    expect(shown.stderr).toBe('');
    expect(shown.exitCode).toBe(0);
    acted = await builderJob(made, run, 'act', {
      stage: 'act',
      'plan-dir': join(run.dir, 'aureus-plan'),
    });
    expect(acted.exitCode).not.toBe(2);
  }
  const artifacts = join(run.dir, 'artifacts');
  cpSync(join(run.dir, 'aureus-plan'), artifacts, { recursive: true });
  if (acted !== null) cpSync(join(run.dir, 'act', 'aureus-run'), artifacts, { recursive: true });
  const published = await actionJob(made, run, 'publish', PUBLISH_TOKEN, artifacts);
  expect(published.stderr).toBe('');
  return { planned, shown, acted, published, artifacts };
}

function planReply(lines: number): ScriptedReply {
  return {
    blocks: [
      {
        type: 'tool_use',
        name: 'submit_plan',
        input: {
          steps: ['add greet', 'add values'],
          files: ['src/greet.ts', 'src/values.ts'],
          estimate: { files_added: 2, files_changed: 0, lines, abstractions: 0, dependencies: 0 },
        },
      },
    ],
  };
}

const LONGER = Array.from({ length: 40 }, (_, n) => `export const v${n} = ${n};`).join('\n');

function createFile(path: string, content: string): ScriptedReply {
  return { blocks: [{ type: 'tool_use', name: 'create_file', input: { path, content } }] };
}

function trackingComment(): string {
  return (
    session.double
      .issueComments(OWNER, REPO, ISSUE)
      .find((comment) => comment.user === 'aureus[bot]')?.body ?? ''
  );
}

function keptRefs(made: BuilderScenario): string[] {
  return runGit(made.bare, [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    `refs/aureus/runs/${RUN_ID}/`,
  ])
    .split('\n')
    .filter((line) => line !== '');
}

function report(folder: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8'));
}

describe('a stopped builder run goes on from its kept work (the four jobs)', () => {
  it('stops at its plan, goes on without planning again, stops in Act, goes on from its kept commit, and ends with a draft pull request', async () => {
    const made = await scenario();
    const base = { issue: String(ISSUE), run_id: RUN_ID };
    const before = model.requests.length;

    // First stop: the plan's estimate passes the requester's 30 points.
    model.script(planReply(40));
    const first = dispatched(made, { ...base, budget_points: '30' });
    const one = await workflow(made, first);
    expect(one.planned.outputs.status).toBe('stopped at the requested budget');
    expect(one.published.exitCode).toBe(0);
    expect(one.published.outputs).toMatchObject({ published: 'false', stopped: 'true' });
    expect(model.requests.length - before).toBe(1);
    const estimated = Number(report(one.artifacts).needsPoints);
    expect(estimated).toBeGreaterThan(30);

    // A writer approved more points: the App dispatches the run again with resume_from. The
    // plan job plans nothing (no model request) and hands the stop on; show-plan posts it.
    const afterFirst = model.requests.length;
    model.script(createFile('src/greet.ts', GREET), createFile('src/values.ts', `${LONGER}\n`));
    const second = dispatched(made, {
      ...base,
      budget_points: String(estimated),
      resume_from: String(first.id),
      trigger: approve(first, `${estimated}pt`),
    });
    const two = await workflow(made, second, one.artifacts);
    expect(two.planned.stdout).toContain(`goes on from workflow run ${first.id}`);
    expect(two.planned.outputs.status).toBe('planned');
    // show-plan posts the stop's plan again, said to be a continuation's.
    const plans = session.double
      .issueComments(OWNER, REPO, ISSUE)
      .filter((comment) => comment.body.includes('aureus:builder-plan'));
    expect(plans.at(-1)?.body).toContain(
      `The run stopped for want of budget in workflow run ${first.id} and goes on now with a larger one, from this plan (not made again)`,
    );
    expect(two.acted?.outputs.status).toBe('stopped at the requested budget');
    expect(model.requests.length - afterFirst).toBe(2);
    // The Act job went on from the stop's plan: its first request was already of Act.
    expect(model.requests[afterFirst]?.raw).toContain('"name":"create_file"');
    expect(model.requests[afterFirst]?.raw).not.toContain('"name":"submit_plan","description');
    expect(two.published.exitCode).toBe(0);
    expect(two.published.outputs.stopped).toBe('true');
    const [kept = ''] = keptRefs(made);
    const keptCommit = kept.split(' ')[1] ?? '';
    expect(runGit(made.bare, ['show', `${keptCommit}:src/greet.ts`])).toBe(GREET.trimEnd());
    expect(trackingComment()).toContain('stopped: it needs a larger budget');

    // Another approval: the run goes on from its kept commit, verifies and finishes.
    const afterSecond = model.requests.length;
    model.script(
      { blocks: [{ type: 'tool_use', name: 'request_verify', input: {} }] },
      { blocks: [{ type: 'tool_use', name: 'finish', input: { summary: 'Added greet.' } }] },
    );
    const third = dispatched(made, {
      ...base,
      budget_points: '60',
      resume_from: String(second.id),
      trigger: approve(second, '60pt'),
    });
    const three = await workflow(made, third, two.artifacts);
    expect(three.acted?.stdout).not.toContain('::error::');
    expect(three.acted?.outputs.status).toBe('done');
    // Verify, finish, then the review vote's call: nothing planned or written again.
    expect(model.requests.length - afterSecond).toBe(3);
    const done = report(three.artifacts);
    expect(done).toMatchObject({ status: 'done', startCommit: made.baseSha });
    // The kept commit is the finished run's history: the work went on from it, not over it.
    expect(done.commits).toContain(keptCommit);
    expect(three.published.exitCode).toBe(0);
    const [pull] = session.double.pullRequests(OWNER, REPO);
    expect(pull).toMatchObject({ draft: true, headRef: BRANCH });
    const pushed = runGit(made.bare, ['rev-parse', `refs/heads/${BRANCH}`]);
    runGit(made.bare, ['merge-base', '--is-ancestor', keptCommit, pushed]);
    expect(trackingComment()).toContain('finished');
  });

  it('refuses a continuation from a run the App did not dispatch, a forged artifact or a moved kept ref, before any model request', async () => {
    const made = await scenario();
    const base = { issue: String(ISSUE), run_id: RUN_ID };
    model.script(
      planReply(10),
      createFile('src/greet.ts', GREET),
      createFile('src/values.ts', `${LONGER}\n`),
    );
    const first = dispatched(made, { ...base, budget_points: '30' });
    const one = await workflow(made, first);
    expect(one.acted?.outputs.status).toBe('stopped at the requested budget');
    expect(one.published.outputs.stopped).toBe('true');
    const head = (report(one.artifacts).commits as string[]).at(-1) ?? '';
    const before = model.requests.length;

    const refusedWith = async (
      stopped: WorkflowRun,
      artifacts: string,
      reason: string,
    ): Promise<void> => {
      const next = dispatched(made, {
        ...base,
        budget_points: '60',
        resume_from: String(stopped.id),
        trigger: approve(stopped, '60pt'),
      });
      const planned = await builderJob(made, next, 'plan', {
        stage: 'plan',
        'resume-dir': artifacts,
      });
      expect(planned.exitCode).toBe(2);
      expect(planned.stdout).toContain('the stopped run cannot be continued');
      expect(planned.stdout).toContain(reason);
      expect(model.requests.length).toBe(before);
    };

    // A writer's own dispatch of the workflow (their artifact, their run), or one on their branch.
    const byWriter = dispatched(made, base, { login: 'mallory', id: 9001, type: 'User' });
    await refusedWith(byWriter, one.artifacts, 'it was started by "mallory"');
    const onBranch = dispatched(made, base, APP_BOT, 'mallory-branch');
    await refusedWith(onBranch, one.artifacts, 'not the default branch main');
    await refusedWith({ ...first, id: 99_999_999 }, one.artifacts, 'does not exist');

    // The artifact forged: another run's report, a run that did not stop, a state naming another
    // commit than the report's.
    const forged = (name: string, edit: (folder: string) => void): string => {
      const folder = join(made.runnerDir, `forged-${name}`);
      rmSync(folder, { recursive: true, force: true });
      cpSync(one.artifacts, folder, { recursive: true });
      edit(folder);
      return folder;
    };
    const editJson = (
      folder: string,
      file: string,
      change: (value: Record<string, unknown>) => void,
    ) => {
      const value = JSON.parse(readFileSync(join(folder, file), 'utf8'));
      change(value);
      writeFileSync(join(folder, file), JSON.stringify(value));
    };
    await refusedWith(
      first,
      forged('other-run', (folder) =>
        editJson(folder, 'report.json', (r) => (r.run_id = 'fedcba987654')),
      ),
      'run_id',
    );
    await refusedWith(
      first,
      forged('done', (folder) => editJson(folder, 'report.json', (r) => (r.status = 'done'))),
      'ended "done", not stopped for want of budget',
    );
    await refusedWith(
      first,
      forged('state', (folder) =>
        editJson(folder, 'run-state.json', (r) => (r.head = made.baseSha)),
      ),
      'names another commit than its report',
    );

    // A writer moves the kept ref to a commit of their own: the artifact is the authority.
    const [ref = ''] = keptRefs(made).map((line) => line.split(' ')[0] ?? '');
    const theirs = runGit(made.bare, [
      'commit-tree',
      `${made.baseSha}^{tree}`,
      '-p',
      made.baseSha,
      '-m',
      'mine',
    ]);
    runGit(made.bare, ['update-ref', ref, theirs]);
    await refusedWith(
      first,
      one.artifacts,
      `holds ${theirs.slice(0, 12)}, not the commit ${head.slice(0, 12)}`,
    );
    runGit(made.bare, ['update-ref', '-d', ref]);
    await refusedWith(first, one.artifacts, `its work is not kept at ${ref}`);
  });

  it('refuses resume_from in a dispatch by the job token that names a start trigger: only a writer’s approval continues a run', async () => {
    const made = await scenario();
    const run = dispatched(made, {
      issue: String(ISSUE),
      run_id: RUN_ID,
      resume_from: '123',
      trigger: 'comment-1',
    });
    const workspace = join(run.dir, 'plan');
    runGit(made.runnerDir, ['clone', '--quiet', '--depth', '1', `file://${made.bare}`, workspace]);
    const event = eventOf(made, run);
    Object.assign(objectAt(event, 'sender'), {
      login: 'github-actions[bot]',
      id: 41898282,
      type: 'Bot',
    });
    const planned = await runBuilderStep({
      runnerDir: made.runnerDir,
      workspace,
      event,
      sha: made.baseSha,
      apiUrl: session.double.url,
      jobToken: BUILD_TOKEN,
      inputs: { stage: 'plan', 'resume-dir': join(run.dir, 'none') },
      stepEnv: { ANTHROPIC_API_KEY: API_KEY },
    });
    expect(planned.exitCode).toBe(2);
    expect(planned.stdout).toContain(
      'the dispatch goes on from workflow run 123 (resume_from), and names a comment as its trigger, not the /aureus approve-budget comment that lets it go on',
    );
  });
});
