import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { sharedLedgerLine } from '../../src/github/shared-ledger.js';
import { GENESIS_HASH } from '../../src/memory/journal-format.js';
import { SHARED_LEDGER_TIP, sharedLedgerTip } from '../../src/memory/shared-ledger-entries.js';
import { runGit } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { type BuilderScenario, makeBuilderScenario } from './support/builder-scenario.js';
import { OWNER, pullRequestEvent, REPO } from './support/pull-request-scenario.js';

/** What the README's learn job declares. */
const LEARN_TOKEN = 'ghs_learn_job';
const PR_TOKEN = 'ghs_pull_request_job';

const session = useActionTestSession({
  [LEARN_TOKEN]: { contents: 'write', metadata: 'read', pull_requests: 'write' },
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

const policy = (open: boolean) => `version: 1
budgets:
  change:
    warn: 40
    block: 60
forbidden_patterns:
  circular_dependency:
    severity: error # cycles block
learning:
  open_pull_request: ${open}
`;

const REASONS = [
  'the parser and its printer call each other',
  'legacy sync module, untangled next sprint',
  'hotfix for the outage',
  'generated client',
  'migration in progress',
];

const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const dayBefore = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

/**
 * The `aureus-ledger` branch as push jobs leave it on the remote: five changes blocked by
 * circular_dependency and let through by an override, within the last days.
 */
function writeSharedLedger(scenario: BuilderScenario, overrides = REASONS.length): void {
  const files: Record<string, string> = {};
  let prev = GENESIS_HASH;
  let last = '';
  for (const [i, reason] of REASONS.slice(0, overrides).entries()) {
    const head = String(i + 1).repeat(40);
    const at = new Date(Date.now() - (REASONS.length - i) * DAY_MS).toISOString();
    const line = sharedLedgerLine(
      {
        headSha: head,
        at,
        record: {
          kind: 'check',
          event: 'push',
          ref: 'refs/heads/main',
          head,
          verdict: 'block',
          cost: { total: 20 + i },
          reasons: [`new circular_dependency: src/a${i}.ts → src/b${i}.ts → src/a${i}.ts`],
          override: { by: `maintainer-${i}`, reason },
        },
      },
      prev,
    );
    last = `entries/${head}.json`;
    files[last] = line.text;
    prev = line.hash;
  }
  files[SHARED_LEDGER_TIP] = sharedLedgerTip(last, prev);
  const git = (args: string[], input?: string) => runGit(scenario.bare, args, input).trim();
  const entries = Object.entries(files).map(([path, text]) => {
    const blob = git(['hash-object', '-w', '--stdin'], text);
    return { path, blob };
  });
  const inner = entries
    .filter((entry) => entry.path.startsWith('entries/'))
    .map((entry) => `100644 blob ${entry.blob}\t${entry.path.slice('entries/'.length)}\n`)
    .join('');
  const entriesTree = git(['mktree'], inner);
  const tip = entries.find((entry) => entry.path === SHARED_LEDGER_TIP)?.blob ?? '';
  const tree = git(
    ['mktree'],
    `040000 tree ${entriesTree}\tentries\n100644 blob ${tip}\ttip.json\n`,
  );
  const commit = git(['commit-tree', tree, '-m', 'aureus: ledger entries']);
  git(['update-ref', 'refs/heads/aureus-ledger', commit]);
}

function runLearn(scenario: BuilderScenario, eventName = 'schedule'): Promise<ActionRun> {
  const head = runGit(scenario.bare, ['rev-parse', 'main']).trim();
  return runAction({
    runnerDir: scenario.runnerDir,
    workspace: scenario.publishWorkspace,
    eventName,
    event: { schedule: '0 6 * * 1', repository: { full_name: `${OWNER}/${REPO}`, name: REPO } },
    sha: head,
    apiUrl: session.double.url,
    inputs: { 'github-token': LEARN_TOKEN, mode: 'learn' },
    runnerEnv: {
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_SERVER_URL: scenario.serverUrl,
    },
  });
}

function operations(): string[] {
  return session.double.requests().map((request) => `${request.method} ${request.operationId}`);
}

describe('the Action in mode learn', () => {
  it('pushes the proposal to aureus/learn-<date> and opens one pull request with the evidence; a second run the same day opens none', async () => {
    const made = await makeBuilderScenario(session.double, policy(true));
    try {
      writeSharedLedger(made);
      const main = runGit(made.bare, ['rev-parse', 'main']).trim();
      const run = await runLearn(made);
      expect(run.exitCode).toBe(0);
      const branch = `aureus/learn-${today()}`;

      // The push: one commit on main that changes the policy alone, as `aureus learn` proposes it.
      const pushed = runGit(made.bare, ['rev-parse', `refs/heads/${branch}`]).trim();
      expect(runGit(made.bare, ['rev-parse', `${pushed}^`]).trim()).toBe(main);
      expect(runGit(made.bare, ['diff', '--name-only', main, pushed]).trim()).toBe(
        '.aureus/policy.yaml',
      );
      // The fixture's runGit drops the output's last newline.
      const proposed = `${runGit(made.bare, ['show', `${pushed}:.aureus/policy.yaml`])}\n`;
      expect(proposed).toBe(policy(true).replace('severity: error', 'severity: warn'));
      const cli = await learnedByTheCli(made);
      expect(proposed).toBe(cli.policy);

      // The pull request: its body is the CLI's text, inert.
      const [pull, ...others] = session.double.pullRequests(OWNER, REPO);
      expect(others).toEqual([]);
      expect(pull).toMatchObject({ headRef: branch, baseRef: 'main', headSha: pushed });
      expect(pull?.title).toBe('AUREUS learn: policy proposal');
      expect(pull?.body).toContain(`\`\`\`text\n${cli.text}\`\`\``);
      expect(pull?.body).toContain('overridden by maintainer-2: hotfix for the outage');
      expect(operations()).toEqual([
        'GET repos/get',
        'GET pulls/list',
        ...Array.from({ length: 7 }, () => 'GET pulls/list'),
        'POST pulls/create',
      ]);
      expect(run.stdout).toContain(`Opened pull request #${pull?.number} from ${branch}`);

      // The same day again: the open one is kept, no second pull request.
      session.double.reset();
      const again = await runLearn(made, 'workflow_dispatch');
      expect(again.exitCode).toBe(0);
      expect(session.double.pullRequests(OWNER, REPO)).toHaveLength(1);
      expect(operations()).not.toContain('POST pulls/create');
      expect(runGit(made.bare, ['rev-parse', `refs/heads/${branch}`]).trim()).toBe(pushed);
      expect(again.stdout).toContain(`#${pull?.number} already proposes this policy`);

      // AUREUS's own check of that pull request flags the policy change for a maintainer.
      const check = await checkLearnPullRequest(made, pushed, pull?.number);
      expect(check.exitCode).toBe(1);
      const [comment] = session.double.issueComments(OWNER, REPO, pull?.number ?? 0);
      expect(comment?.body).toContain('**⚠️ policy change — needs maintainer approval.**');
      expect(comment?.body).toContain(
        'policy change loosens the gate (forbidden\\_patterns.circular\\_dependency.severity: "error" → "warn")',
      );
    } finally {
      await made.remove();
    }
  });

  it('pushes a new proposal to the branch of the open learn pull request, opening no other', async () => {
    const made = await makeBuilderScenario(session.double, policy(true));
    try {
      writeSharedLedger(made);
      const main = runGit(made.bare, ['rev-parse', 'main']).trim();
      // Opened ten days ago, on the policy as it was then: still open.
      const old = `aureus/learn-${dayBefore(10)}`;
      runGit(made.bare, ['update-ref', `refs/heads/${old}`, main]);
      session.double.addPullRequest({
        ...{ owner: OWNER, repo: REPO, number: 3, baseSha: main, headSha: main },
        baseRef: 'main',
        headRef: old,
        title: 'AUREUS learn: policy proposal',
        user: 'github-actions[bot]',
      });
      const run = await runLearn(made);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(`pushed the new proposal to ${old}, the branch of the open #3`);
      const pushed = runGit(made.bare, ['rev-parse', `refs/heads/${old}`]).trim();
      expect(runGit(made.bare, ['rev-parse', `${pushed}^`]).trim()).toBe(main);
      expect(runGit(made.bare, ['show', `${pushed}:.aureus/policy.yaml`])).toContain(
        'severity: warn # cycles block',
      );
      expect(
        runGit(made.bare, ['branch', '--list', 'aureus/learn-*']).trim().split('\n'),
      ).toHaveLength(1);
      expect(operations()).not.toContain('POST pulls/create');
    } finally {
      await made.remove();
    }
  });

  it("never pushes over a person's pull request from a branch named like a learn one", async () => {
    const made = await makeBuilderScenario(session.double, policy(true));
    try {
      writeSharedLedger(made);
      const main = runGit(made.bare, ['rev-parse', 'main']).trim();
      const theirs = `aureus/learn-${dayBefore(10)}`;
      runGit(made.bare, ['update-ref', `refs/heads/${theirs}`, main]);
      session.double.addPullRequest({
        ...{ owner: OWNER, repo: REPO, number: 4, baseSha: main, headSha: main },
        baseRef: 'main',
        headRef: theirs,
        title: 'AUREUS learn: policy proposal',
        user: 'a-writer',
      });
      const run = await runLearn(made);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).not.toContain('the branch of the open #4');
      expect(runGit(made.bare, ['rev-parse', `refs/heads/${theirs}`]).trim()).toBe(main);
    } finally {
      await made.remove();
    }
  });

  it('opens none within 7 days of the last learn pull request, and pushes nothing without a proposal', async () => {
    const made = await makeBuilderScenario(session.double, policy(true));
    try {
      writeSharedLedger(made);
      const main = runGit(made.bare, ['rev-parse', 'main']).trim();
      const closed = `aureus/learn-${dayBefore(3)}`;
      runGit(made.bare, ['update-ref', `refs/heads/${closed}`, main]);
      session.double.addPullRequest({
        ...{ owner: OWNER, repo: REPO, number: 4, baseSha: main, headSha: main },
        baseRef: 'main',
        headRef: closed,
        state: 'closed',
      });
      const recent = await runLearn(made);
      expect(recent.exitCode).toBe(0);
      expect(recent.stdout).toContain(
        `a learn pull request was opened on ${dayBefore(3)} (#4); the next one may open 7 days after it, so nothing is pushed.`,
      );
      expect(operations()).not.toContain('POST pulls/create');
      expect(runGit(made.bare, ['branch', '--list', `aureus/learn-${today()}`])).toBe('');
    } finally {
      await made.remove();
    }
    const quiet = await makeBuilderScenario(session.double, policy(true));
    try {
      // Two overrides: fewer than learning.relax_after_overrides, so nothing to propose.
      writeSharedLedger(quiet, 2);
      session.double.reset();
      const run = await runLearn(quiet);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(
        'AUREUS learn: no change to .aureus/policy.yaml to propose; nothing is pushed.',
      );
      expect(runGit(quiet.bare, ['branch', '--list', 'aureus/learn-*'])).toBe('');
      expect(session.double.requests()).toEqual([]);
    } finally {
      await quiet.remove();
    }
  });

  it('with learning.open_pull_request off, pushes nothing and opens nothing', async () => {
    const made = await makeBuilderScenario(session.double, policy(false));
    try {
      writeSharedLedger(made);
      const run = await runLearn(made);
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain('learning.open_pull_request is off');
      expect(runGit(made.bare, ['branch', '--list', 'aureus/learn-*']).trim()).toBe('');
      expect(session.double.requests()).toEqual([]);
    } finally {
      await made.remove();
    }
  });
});

/** `aureus learn --shared` in a clone of the remote: the policy it proposes and its text. */
async function learnedByTheCli(made: BuilderScenario): Promise<{ policy: string; text: string }> {
  const place = await makeTempDir('learn-cli');
  try {
    runGit(place.path, ['clone', '--quiet', `file://${made.bare}`, 'clone']);
    const clone = join(place.path, 'clone');
    const output = join(place.path, 'policy.yaml');
    const written = await runCliInProcess(['learn', '--shared', '--output', output], clone);
    expect(written.code).toBe(0);
    const text = (await runCliInProcess(['learn', '--shared'], clone)).stdout;
    return { policy: readFileSync(output, 'utf8'), text };
  } finally {
    await place.remove();
  }
}

/** The Action's check of the learn pull request, from a depth-1 checkout of its head. */
async function checkLearnPullRequest(
  made: BuilderScenario,
  head: string,
  number: number | undefined,
): Promise<ActionRun> {
  const place = await makeTempDir('learn-check');
  try {
    const workspace = join(place.path, 'workspace');
    const branch = runGit(made.bare, [
      'for-each-ref',
      '--format=%(refname:short)',
      'refs/heads/aureus/',
    ]).trim();
    runGit(place.path, [
      'clone',
      '--quiet',
      '--depth',
      '1',
      '--branch',
      branch,
      `file://${made.bare}`,
      workspace,
    ]);
    const base = runGit(made.bare, ['rev-parse', 'main']).trim();
    const event = pullRequestEvent(
      {
        origin: made.origin,
        baseSha: base,
        headSha: head,
        workspace,
        runnerDir: made.runnerDir,
        bareUrl: `file://${made.bare}`,
        remove: async () => {},
      },
      { number: number ?? 0, title: 'AUREUS learn: policy proposal' },
    );
    return await runAction({
      runnerDir: made.runnerDir,
      workspace,
      eventName: 'pull_request',
      event,
      sha: head,
      apiUrl: session.double.url,
      inputs: { 'github-token': PR_TOKEN },
    });
  } finally {
    await place.remove();
  }
}
