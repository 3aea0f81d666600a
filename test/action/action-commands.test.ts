import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ACTION_NO_CONTINUATION_REPLY } from '../../src/action/action-command-replies.js';
import { readBuilderDispatch } from '../../src/action/builder-dispatch.js';
import { GITHUB_ACTIONS_BOT_ID } from '../../src/action/runner-environment.js';
import { builderRunMarker } from '../../src/github/builder-run-comment.js';
import {
  NO_RUN_TO_CANCEL_REPLY,
  OUTDATED_WORKFLOW_REPLY,
  triggerRunId,
} from '../../src/github/builder-trigger.js';
import {
  BUILDER_NOT_ENABLED_REPLY,
  HELP_REPLY,
  ISSUES_ONLY_REPLY,
} from '../../src/github/command-replies.js';
import { issueSnapshot } from '../../src/github/issue-snapshot.js';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { GITHUB_ACTIONS_BOT, type Role } from '../support/github-api-double/index.js';
import { makeTempDir } from '../support/temp-dir.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { issueCommentEvent, issueLabeledEvent, type Sender } from './support/command-payloads.js';
import { OWNER, REPO } from './support/pull-request-scenario.js';

/** The job token of a workflow on issue_comment and issues, with the README's permissions. */
const JOB_TOKEN = 'ghs_command_job';
/** The maintainer's own token, to post the comments a test replays (as on github.com). */
const MAINTAINER_TOKEN = 'ghp_maintainer';

const MAINTAINER: Sender = { login: 'maintainer', id: 5001, type: 'User' };
const WRITER: Sender = { login: 'writer', id: 5002, type: 'User' };
const READER: Sender = { login: 'reader', id: 5003, type: 'User' };
const TRIAGER: Sender = { login: 'triager', id: 5004, type: 'User' };
const OTHER_BOT: Sender = { login: 'helper[bot]', id: 7001, type: 'Bot' };

const session = useActionTestSession({
  [JOB_TOKEN]: {
    actions: 'write',
    contents: 'read',
    issues: 'write',
    metadata: 'read',
    pull_requests: 'write',
  },
});

const BUILDER_WORKFLOW_FILE = `on:
  workflow_dispatch:
    inputs: { issue: {}, snapshot: {}, requester: {}, run_id: {}, budget_usd: {}, trigger: {} }
jobs: {}
`;

function policy(builder: boolean, extra = ''): string {
  return `version: 1\nintegrations:\n  app:\n    builder: ${builder}\n${extra}`;
}

let origin: Repo & { remove(): Promise<void> };
let runner: Awaited<ReturnType<typeof makeTempDir>>;

beforeAll(async () => {
  origin = await makeRepo('action-commands');
  origin.write('.aureus/policy.yaml', policy(true));
  origin.write('.github/workflows/aureus-builder.yml', BUILDER_WORKFLOW_FILE);
  origin.write('src/core.ts', 'export const core = 1;\n');
  origin.commit('base');
  runner = await makeTempDir('action-commands-runner');
  register();
  session.double.addToken(
    MAINTAINER_TOKEN,
    { issues: 'write', metadata: 'read' },
    { identity: { login: MAINTAINER.login, id: MAINTAINER.id } },
  );
});

afterAll(async () => {
  await origin.remove();
  await runner.remove();
});

/** (Re-)registers the repository, its branches read from git now, and its collaborators. */
function register(): void {
  session.double.addRepository({
    owner: OWNER,
    repo: REPO,
    gitDir: origin.dir,
    defaultBranch: 'main',
  });
  const roles: [Sender, Role][] = [
    [MAINTAINER, 'maintain'],
    [WRITER, 'write'],
    [READER, 'read'],
    [TRIAGER, 'triage'],
  ];
  for (const [who, role] of roles)
    session.double.setPermission(OWNER, REPO, { login: who.login, id: who.id }, role);
}

let runNumber = 1000;

function run(eventName: string, event: unknown): Promise<ActionRun> {
  runNumber += 1;
  return runAction({
    runnerDir: runner.path,
    workspace: origin.dir,
    eventName,
    event,
    sha: origin.git('rev-parse', 'HEAD'),
    apiUrl: session.double.url,
    inputs: { 'github-token': JOB_TOKEN },
    runnerEnv: { GITHUB_RUN_ID: String(runNumber), GITHUB_RUN_ATTEMPT: '1' },
  });
}

function operations(): string[] {
  return session.double.requests().map((request) => `${request.method} ${request.operationId}`);
}

/** Requests that change something on GitHub. */
function writes(): string[] {
  return operations().filter((operation) => !operation.startsWith('GET '));
}

/** Posts a comment as the maintainer would on github.com; its id is what the event names. */
async function postAsMaintainer(issue: number, body: string): Promise<number> {
  const response = await fetch(
    `${session.double.url}/repos/${OWNER}/${REPO}/issues/${issue}/comments`,
    {
      method: 'POST',
      headers: { authorization: `token ${MAINTAINER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body }),
    },
  );
  const created: unknown = await response.json();
  if (
    typeof created !== 'object' ||
    created === null ||
    !('id' in created) ||
    typeof created.id !== 'number'
  )
    throw new Error(`the double did not create the comment (${response.status})`);
  session.double.reset();
  return created.id;
}

/** GitHub's record of `sender` adding the builder label to `issue`, as the labeled event reports. */
function labeledBy(sender: Sender, issue: number): number {
  return session.double.addIssueEvent({
    owner: OWNER,
    repo: REPO,
    issueNumber: issue,
    actor: { login: sender.login, id: sender.id },
    label: 'aureus:implement',
  });
}

describe('the Action on issue comments and labels', () => {
  it("snapshots people's comments before the trigger, as the App does: a later one is left out", async () => {
    const where = { owner: OWNER, repo: REPO, issueNumber: 41 };
    const reader = { login: 'reader-12', id: 5012, type: 'User' as const };
    session.double.addIssueComment({ ...where, user: reader, body: 'Keep it short.' });
    const id = session.double.addIssueComment({
      ...where,
      user: { login: WRITER.login, id: WRITER.id, type: 'User' },
      body: '/aureus implement',
    });
    session.double.addIssueComment({ ...where, user: reader, body: 'Use Rust.' });
    session.double.reset();
    const event = issueCommentEvent(41, '/aureus implement', WRITER, { commentId: id });
    const result = await run('issue_comment', event);
    expect(result.exitCode).toBe(0);
    expect(operations()).toContain('GET issues/list-comments');
    const dispatch = session.double
      .requests()
      .find((request) => request.operationId === 'actions/create-workflow-dispatch');
    const expected = issueSnapshot({
      number: 41,
      title: 'Add a greeting',
      body: 'Print a greeting on start.',
      updatedAt: '',
      earlier: [{ author: 'reader-12', association: 'NONE', body: 'Keep it short.' }],
      comments: [],
    });
    expect(dispatch?.body).toMatchObject({ inputs: { snapshot: expected.hash } });
  });

  it('starts the builder for a writer: live permission, tracking comment, dispatch the publish job accepts', async () => {
    const result = await run('issue_comment', issueCommentEvent(11, '/aureus implement', WRITER));
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(operations()[0]).toBe('GET repos/get-collaborator-permission-level');
    expect(writes()).toEqual([
      'POST issues/create-comment',
      'POST actions/create-workflow-dispatch',
      'PATCH issues/update-comment',
    ]);
    const dispatch = session.double
      .requests()
      .find((request) => request.operationId === 'actions/create-workflow-dispatch');
    const expected = issueSnapshot({
      number: 11,
      title: 'Add a greeting',
      body: 'Print a greeting on start.',
      updatedAt: '',
      comments: [],
    });
    expect(dispatch?.body).toEqual({
      ref: 'main',
      inputs: {
        issue: '11',
        snapshot: expected.hash,
        requester: String(WRITER.id),
        // One trigger, one run: the id is the trigger's, whichever job attempt dispatches it.
        run_id: triggerRunId({ owner: OWNER, repo: REPO }, 11, { kind: 'comment', id: 880001 }),
        // The builder step reads the comment again to prove who asked.
        trigger: 'comment-880001',
      },
      return_run_details: true,
    });
    const [tracking] = session.double.issueComments(OWNER, REPO, 11);
    const [workflowRun] = session.double.workflowRuns(OWNER, REPO).slice(-1);
    expect(tracking?.user).toBe(GITHUB_ACTIONS_BOT.login);
    expect(tracking?.body).toMatch(
      new RegExp(
        `^<!-- aureus:builder-run [0-9a-f]{12} -->\n.*: queued workflow run ${workflowRun?.id}$`,
      ),
    );
    // The publish job's reading of the dispatch: sent by the job token's account, the very
    // account whose tracking comment it trusts as the run's record.
    const dispatched = readBuilderDispatch('workflow_dispatch', {
      repository: { full_name: `${OWNER}/${REPO}`, default_branch: 'main' },
      sender: GITHUB_ACTIONS_BOT,
      inputs: workflowRun?.inputs,
    });
    expect(dispatched.dispatcher).toBe(GITHUB_ACTIONS_BOT_ID);
    expect(GITHUB_ACTIONS_BOT.id).toBe(GITHUB_ACTIONS_BOT_ID);
    expect(tracking?.body.startsWith(builderRunMarker(dispatched.runId))).toBe(true);
  });

  it('a second trigger while the run is queued says so and dispatches nothing', async () => {
    labeledBy(MAINTAINER, 11);
    const result = await run('issues', issueLabeledEvent(11, 'aureus:implement', MAINTAINER));
    expect(result.exitCode).toBe(0);
    expect(writes()).toEqual(['POST issues/create-comment', 'PATCH issues/update-comment']);
    expect(session.double.issueComments(OWNER, REPO, 11).at(-1)?.body).toContain(
      'A builder run is already queued or running on this issue',
    );
  });

  it('/aureus cancel marks the queued run cancelled, then cancels its workflow run', async () => {
    const commentId = await postAsMaintainer(11, '/aureus cancel');
    const event = issueCommentEvent(11, '/aureus cancel', MAINTAINER);
    Object.assign(event.comment as object, { id: commentId });
    const result = await run('issue_comment', event);
    expect(result.exitCode).toBe(0);
    expect(writes()).toEqual([
      'POST reactions/create-for-issue-comment',
      'PATCH issues/update-comment',
      'POST actions/cancel-workflow-run',
    ]);
    const [tracking] = session.double.issueComments(OWNER, REPO, 11);
    expect(tracking?.body).toMatch(/: cancelled by .*maintainer$/);

    session.double.reset();
    const again = await run('issue_comment', event);
    expect(again.exitCode).toBe(0);
    expect(session.double.issueComments(OWNER, REPO, 11).at(-1)?.body).toBe(NO_RUN_TO_CANCEL_REPLY);
  });

  it('starts the builder from the label added by a maintainer, naming that label event', async () => {
    const event = labeledBy(MAINTAINER, 12);
    const result = await run('issues', issueLabeledEvent(12, 'aureus:implement', MAINTAINER));
    expect(result.exitCode).toBe(0);
    expect(writes()).toEqual([
      'POST issues/create-comment',
      'POST actions/create-workflow-dispatch',
      'PATCH issues/update-comment',
    ]);
    expect(session.double.workflowRuns(OWNER, REPO).at(-1)?.inputs.trigger).toBe(`label-${event}`);
  });

  it.each([
    ['a reader', READER],
    ['a triager', TRIAGER],
  ])(
    '%s gets nothing beyond the permission lookup, by comment or by label',
    async (_who, sender) => {
      const comment = await run(
        'issue_comment',
        issueCommentEvent(13, '/aureus implement', sender),
      );
      expect(comment.exitCode).toBe(0);
      expect(comment.stdout).toContain('commands need write, maintain or admin');
      expect(operations()).toEqual(['GET repos/get-collaborator-permission-level']);
      session.double.reset();
      const label = await run('issues', issueLabeledEvent(13, 'aureus:implement', sender));
      expect(label.exitCode).toBe(0);
      expect(writes()).toEqual([]);
      expect(operations()).toContain('GET repos/get-collaborator-permission-level');
      expect(session.double.issueComments(OWNER, REPO, 13)).toEqual([]);
    },
  );

  it('ignores an edited comment and a bot not allowed by the policy', async () => {
    const edited = await run(
      'issue_comment',
      issueCommentEvent(14, '/aureus implement', WRITER, { action: 'edited' }),
    );
    expect(edited.exitCode).toBe(0);
    expect(edited.stdout).toContain('nothing to do (action "edited")');
    expect(operations()).toEqual([]);
    const bot = await run('issue_comment', issueCommentEvent(14, '/aureus implement', OTHER_BOT));
    expect(bot.exitCode).toBe(0);
    expect(bot.stdout).toContain('is not in allowed_bot_ids');
    expect(writes()).toEqual([]);
    expect(operations()).not.toContain('GET repos/get-collaborator-permission-level');
    const own = await run(
      'issue_comment',
      issueCommentEvent(14, '/aureus implement', {
        login: 'github-actions[bot]',
        id: 41898282,
        type: 'Bot',
      }),
    );
    expect(own.exitCode).toBe(0);
    expect(writes()).toEqual([]);
  });

  it('answers /aureus help to a writer, and refuses the builder where the default branch does not enable it', async () => {
    const help = await run('issue_comment', issueCommentEvent(15, '/aureus help', WRITER));
    expect(help.exitCode).toBe(0);
    expect(session.double.issueComments(OWNER, REPO, 15).at(-1)?.body).toBe(HELP_REPLY);

    origin.write('.aureus/policy.yaml', policy(false));
    origin.commit('builder off');
    register();
    try {
      session.double.reset();
      const off = await run('issue_comment', issueCommentEvent(15, '/aureus implement', WRITER));
      expect(off.exitCode).toBe(0);
      expect(writes()).toEqual(['POST issues/create-comment']);
      const reply = session.double.issueComments(OWNER, REPO, 15).at(-1)?.body;
      expect(reply).toBe(BUILDER_NOT_ENABLED_REPLY);
      expect(reply).toContain('integrations.app.builder: true');
    } finally {
      origin.write('.aureus/policy.yaml', policy(true));
      origin.commit('builder on');
      register();
    }
  });

  it('answers a builder workflow without the trigger input with the command that rewrites it', async () => {
    origin.write(
      '.github/workflows/aureus-builder.yml',
      BUILDER_WORKFLOW_FILE.replace(', trigger: {}', ''),
    );
    origin.commit('builder workflow from before trigger');
    register();
    try {
      session.double.reset();
      const result = await run('issue_comment', issueCommentEvent(61, '/aureus implement', WRITER));
      expect(result.exitCode).toBe(0);
      expect(writes()).toEqual([
        'POST issues/create-comment',
        'POST actions/create-workflow-dispatch',
        'PATCH issues/update-comment',
      ]);
      const reply = session.double.issueComments(OWNER, REPO, 61).at(-1)?.body;
      expect(reply).toBe(OUTDATED_WORKFLOW_REPLY);
      expect(reply).toContain('aureus init --builder --force');
    } finally {
      origin.write('.github/workflows/aureus-builder.yml', BUILDER_WORKFLOW_FILE);
      origin.commit('builder workflow with trigger');
      register();
    }
  });

  it("refuses past the day's spend counted from the builder workflow's runs", async () => {
    origin.write(
      '.aureus/policy.yaml',
      policy(true, 'cost_thresholds:\n  max_runs_per_actor_per_day: 50\n'),
    );
    origin.commit('more runs a person');
    register();
    const now = Date.now();
    // max_usd_per_day 20 at max_usd_per_run 2: ten runs of the last day leave no room.
    for (let index = 0; index < 10; index++)
      session.double.addWorkflowRun(OWNER, REPO, {
        workflow: 'aureus-builder.yml',
        createdAt: new Date(now - 60_000 * (index + 1)).toISOString(),
      });
    session.double.reset();
    const result = await run('issue_comment', issueCommentEvent(16, '/aureus implement', WRITER));
    expect(result.exitCode).toBe(0);
    expect(writes()).toEqual(['POST issues/create-comment']);
    expect(session.double.issueComments(OWNER, REPO, 16).at(-1)?.body).toContain(
      '`cost_thresholds.max_usd_per_day` ($20)',
    );
  });

  it("counts every run of the day towards each requester's cap, since one token dispatched them all", async () => {
    origin.write(
      '.aureus/policy.yaml',
      policy(true, 'cost_thresholds:\n  max_runs_per_actor_per_day: 2\n'),
    );
    origin.commit('two runs a person');
    register();
    // Two runs of the last day, and one from the day before, which no longer counts.
    for (const hoursAgo of [1, 2, 25])
      session.double.addWorkflowRun(OWNER, REPO, {
        workflow: 'aureus-builder.yml',
        createdAt: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
      });
    session.double.reset();
    const result = await run('issue_comment', issueCommentEvent(17, '/aureus implement', WRITER));
    expect(result.exitCode).toBe(0);
    expect(writes()).toEqual(['POST issues/create-comment']);
    const reply = session.double.issueComments(OWNER, REPO, 17).at(-1)?.body;
    expect(reply).toContain('has run 2 times in the last 24 hours');
    expect(reply).toContain('`cost_thresholds.max_runs_per_actor_per_day` (2)');
  });

  it('answers the commands only the App honours with what to use in the Action', async () => {
    const price = await run(
      'issue_comment',
      issueCommentEvent(18, '/aureus price', WRITER, { onPullRequest: true }),
    );
    expect(price.exitCode).toBe(0);
    expect(writes()).toEqual(['POST issues/create-comment']);
    expect(session.double.issueComments(OWNER, REPO, 18).at(-1)?.body).toContain(
      "AUREUS job's summary",
    );
    session.double.reset();
    const onIssue = await run(
      'issue_comment',
      issueCommentEvent(19, '/aureus implement', WRITER, { onPullRequest: true }),
    );
    expect(onIssue.exitCode).toBe(0);
    expect(session.double.issueComments(OWNER, REPO, 19).at(-1)?.body).toBe(ISSUES_ONLY_REPLY);
    session.double.reset();
    const approve = await run(
      'issue_comment',
      issueCommentEvent(20, '/aureus approve-budget 60pt', WRITER),
    );
    expect(approve.exitCode).toBe(0);
    expect(writes()).toEqual(['POST issues/create-comment']);
    expect(session.double.issueComments(OWNER, REPO, 20).at(-1)?.body).toBe(
      ACTION_NO_CONTINUATION_REPLY,
    );
  });
});
