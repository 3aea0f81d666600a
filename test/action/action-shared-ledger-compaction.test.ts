import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { appendToSharedLedger } from '../../src/github/shared-ledger.js';
import {
  parseSharedLedgerFiles,
  SHARED_LEDGER_SUMMARY,
} from '../../src/memory/shared-ledger-entries.js';
import type { JsonObject } from '../../src/model/json.js';
import { runGit } from '../support/git-fixture.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';
import { runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  codeLines,
  OWNER,
  pullRequestEvent,
  REPO,
  type Scenario,
  SMALL_BUDGET_POLICY,
} from './support/pull-request-scenario.js';

const PUSH_TOKEN = 'ghs_push_job';
const PR_TOKEN = 'ghs_pull_request_job';
const BRANCH = 'aureus-ledger';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Two days of retention, but learn reads five (and the patterns registry four): the shared
 * ledger keeps five. Three checks are enough for learn to propose budgets from the team's costs.
 */
const POLICY = `${SMALL_BUDGET_POLICY}memory:
  ledger_retention_days: 2
  patterns_retention_days: 4
learning:
  window_days: 5
  min_changes: 3
`;

const session = useActionTestSession({
  [PUSH_TOKEN]: { contents: 'write', metadata: 'read', checks: 'write', pull_requests: 'read' },
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Twelve pushes judged earlier, one a day, the oldest 12.5 days ago; the eighth let a policy
 * loosening through with a maintainer's approval.
 */
async function recordTwelveDays(): Promise<void> {
  const client = new Octokit({ auth: PUSH_TOKEN, baseUrl: session.double.url, log: quiet });
  for (let n = 1; n <= 12; n++) {
    const head = n.toString(16).padStart(40, 'e');
    const approval: JsonObject =
      n === 8
        ? { policyApproval: { by: 'ada', reason: 'room for the parser', pullRequest: 40 } }
        : {};
    await appendToSharedLedger(
      client,
      { owner: OWNER, repo: REPO },
      {
        headSha: head,
        at: new Date(Date.now() - (13 - n + 0.5) * DAY_MS).toISOString(),
        record: {
          kind: 'check',
          event: 'push',
          ref: 'refs/heads/main',
          head,
          verdict: 'pass',
          cost: { total: 3 * n, loc: 3 * n },
          ...approval,
        },
      },
    );
  }
}

/** The feature branch merged into main and pushed; main checked out as actions/checkout does. */
async function pushToMain(made: Scenario) {
  made.origin.git('checkout', '--quiet', 'main');
  made.origin.git('merge', '--quiet', '--no-ff', '-m', 'Merge #41', 'feature');
  const sha = made.origin.git('rev-parse', 'HEAD');
  runGit(made.origin.dir, ['push', '--quiet', made.bareUrl.replace('file://', ''), 'main']);
  const workspace = join(made.runnerDir, '..', 'main');
  runGit(join(made.runnerDir, '..'), [
    'clone',
    '--quiet',
    '--depth',
    '1',
    '--branch',
    'main',
    made.bareUrl,
    workspace,
  ]);
  const payload = webhookExample('push');
  Object.assign(payload, {
    ref: 'refs/heads/main',
    before: made.baseSha,
    after: sha,
    deleted: false,
    created: false,
  });
  Object.assign(objectAt(payload, 'repository'), {
    full_name: `${OWNER}/${REPO}`,
    name: REPO,
    default_branch: 'main',
  });
  const run = await runAction({
    runnerDir: made.runnerDir,
    workspace,
    eventName: 'push',
    event: payload,
    sha,
    apiUrl: session.double.url,
    inputs: { 'github-token': PUSH_TOKEN },
  });
  made.origin.git('checkout', '--quiet', 'feature');
  return run;
}

/** The branch's files at `commit` of the double, as a clone of it holds them. */
async function filesAt(commit: string): Promise<Record<string, string>> {
  const client = new Octokit({ auth: PUSH_TOKEN, baseUrl: session.double.url, log: quiet });
  const { data } = await client.rest.git.getTree({
    owner: OWNER,
    repo: REPO,
    tree_sha: commit,
    recursive: '1',
  });
  return Object.fromEntries(
    data.tree.flatMap((item) => {
      const text = session.double.fileAt(OWNER, REPO, commit, item.path ?? '');
      return item.type === 'blob' && text !== undefined
        ? [[item.path ?? '', text.toString('utf8')]]
        : [];
    }),
  );
}

/**
 * What the readers of a clone answer when origin's aureus-ledger branch holds `files`: ledger
 * verify and show, and learn --shared.
 */
async function readersOf(made: Scenario, files: Record<string, string>, name: string) {
  const origin = made.origin;
  if (origin.git('branch', '--list', BRANCH) !== '')
    origin.git('branch', '--quiet', '--delete', '--force', BRANCH);
  origin.git('checkout', '--quiet', '--orphan', BRANCH);
  origin.git('rm', '-rf', '--quiet', '--ignore-unmatch', '.');
  for (const [path, text] of Object.entries(files)) origin.write(path, text);
  origin.commit('ledger');
  origin.git('checkout', '--quiet', '--force', 'main');
  const clone = join(made.runnerDir, '..', name);
  runGit(join(made.runnerDir, '..'), ['clone', '--quiet', origin.dir, clone]);
  const verify = await runCliInProcess(['ledger', 'verify', '--shared'], clone);
  const show = await runCliInProcess(['ledger', 'show', '--shared'], clone);
  const learn = await runCliInProcess(['learn', '--shared'], clone);
  const patterns = await runCliInProcess(
    ['memory', 'patterns', '--shared', '--format', 'json'],
    clone,
  );
  return { verify, show, learn, patterns: JSON.parse(patterns.stdout) };
}

async function trendChart(made: Scenario): Promise<string> {
  session.double.reset();
  const run = await runAction({
    runnerDir: made.runnerDir,
    workspace: made.workspace,
    eventName: 'pull_request',
    event: pullRequestEvent(made),
    sha: made.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': PR_TOKEN },
  });
  expect(run.exitCode).toBe(0);
  const body = session.double.issueComments(OWNER, REPO, 7)[0]?.body ?? '';
  return /```mermaid[\s\S]*?```/.exec(body)?.[0] ?? '';
}

describe('the Action compacts the shared ledger under the policy’s retention', () => {
  it('replaces the old entries by a summary, and every reader answers as before', async () => {
    const made = await session.scenario(
      (origin) => origin.write('src/feature.ts', codeLines('feature', 8)),
      POLICY,
    );
    await recordTwelveDays();
    const chartBefore = await trendChart(made);
    expect(chartBefore).toContain('```mermaid');

    const run = await pushToMain(made);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      'Compacted the shared ledger: 8 entries older than 5 days became its summary, 5 are kept.',
    );
    const compacted = session.double.ref(OWNER, REPO, `refs/heads/${BRANCH}`) ?? '';
    const after = await filesAt(compacted);
    expect(Object.keys(after).filter((path) => path.startsWith('entries/'))).toHaveLength(5);
    expect(after[SHARED_LEDGER_SUMMARY]).toContain('"kind":"compaction"');
    // The history keeps the ledger as the append left it: the compaction is a fast-forward.
    const client = new Octokit({ auth: PUSH_TOKEN, baseUrl: session.double.url, log: quiet });
    const { data: commit } = await client.rest.git.getCommit({
      owner: OWNER,
      repo: REPO,
      commit_sha: compacted,
    });
    expect(commit.message).toMatch(/^aureus: ledger compaction of 8 entries before /);
    const appended = commit.parents[0]?.sha ?? '';
    const before = await filesAt(appended);
    expect(Object.keys(before).filter((path) => path.startsWith('entries/'))).toHaveLength(13);

    const full = await readersOf(made, before, 'clone-before');
    const kept = await readersOf(made, after, 'clone-after');
    expect(full.verify.stdout).toMatch(/13 entries, every checksum and link verified/);
    expect(kept.verify).toMatchObject({ code: 0, stderr: '' });
    expect(kept.verify.stdout).toMatch(/6 entries, every checksum and link verified/);
    // The maintainer's approval of the loosening is still listed, with its commit.
    expect(full.show.stdout).toContain('policy loosening approved by ada: room for the parser');
    expect(kept.show.stdout).toContain('policy loosening approved by ada: room for the parser');
    expect(kept.show.stdout).toContain('8'.padStart(40, 'e').slice(0, 12));
    expect(full.learn.code).toBe(0);
    // learn reads five days, whose entries keep their numbers: the same proposal, word for word.
    expect(kept.learn).toEqual(full.learn);
    expect(kept.patterns).toMatchObject({
      checks: full.patterns.checks,
      rules: full.patterns.rules,
    });
    expect(full.patterns.checks).toBe(4);
    // The trend chart walks the branch's history: the same costs, plus the push's.
    const chartAfter = await trendChart(made);
    const costs = (chart: string) => /line \[([^\]]*)\]/.exec(chart)?.[1]?.split(', ') ?? [];
    const total = costs(chartBefore).at(-1);
    expect(costs(chartAfter)).toEqual([
      ...costs(chartBefore).slice(1, -1),
      String(
        JSON.parse(before[`entries/${made.origin.git('rev-parse', 'main')}.json`] ?? '{}').record
          ?.cost?.total,
      ),
      total,
    ]);
  });

  it('keeps an entry another run appends while it compacts, and leaves the compaction to the next run', async () => {
    const made = await session.scenario(
      (origin) => origin.write('src/feature.ts', codeLines('feature', 8)),
      POLICY,
    );
    await recordTwelveDays();
    const raced = 'f'.repeat(40);
    const client = new Octokit({ auth: PUSH_TOKEN, baseUrl: session.double.url, log: quiet });
    // The run's second ref update is its compaction's: another push job's entry lands first.
    session.double.beforeCall('git/update-ref', 2, async () => {
      const result = await appendToSharedLedger(
        client,
        { owner: OWNER, repo: REPO },
        {
          headSha: raced,
          at: new Date().toISOString(),
          record: {
            kind: 'check',
            event: 'push',
            ref: 'refs/heads/main',
            head: raced,
            verdict: 'pass',
          },
        },
      );
      expect(result).toBe('written');
    });
    const run = await pushToMain(made);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(
      'The shared ledger was not compacted: another run appended to it meanwhile; the next run compacts it.',
    );
    const files = await filesAt(session.double.ref(OWNER, REPO, `refs/heads/${BRANCH}`) ?? '');
    expect(files[SHARED_LEDGER_SUMMARY]).toBeUndefined();
    const contents = parseSharedLedgerFiles(
      Object.entries(files).map(([path, text]) => ({ path, text })),
    );
    expect(contents).toMatchObject({ intact: true, problems: [] });
    expect(contents.entries).toHaveLength(14);
    expect(contents.entries.at(-1)?.record.head).toBe(raced);
  });
});
