import { describe, expect, it } from '@jest/globals';
import { Octokit } from '@octokit/rest';
import { appendToSharedLedger } from '../../src/github/shared-ledger.js';
import type { JsonObject } from '../../src/model/json.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  codeLines,
  OWNER,
  pullRequestEvent,
  REPO,
  type Scenario,
} from './support/pull-request-scenario.js';

const PR_TOKEN = 'ghs_pull_request_job';
/** What the push jobs that wrote the shared ledger held. */
const PUSH_TOKEN = 'ghs_push_job';

const session = useActionTestSession({
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
  [PUSH_TOKEN]: { contents: 'write', metadata: 'read', pull_requests: 'read' },
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Pushes to the default branch judged earlier: one shared-ledger entry each, oldest first. */
async function recordEarlierChanges(records: readonly JsonObject[]): Promise<void> {
  const client = new Octokit({ auth: PUSH_TOKEN, baseUrl: session.double.url, log: quiet });
  for (const [index, record] of records.entries()) {
    const head = (index + 1).toString(16).padStart(40, 'e');
    await appendToSharedLedger(
      client,
      { owner: OWNER, repo: REPO },
      {
        headSha: head,
        at: `2026-05-${String(index + 1).padStart(2, '0')}T00:00:00.000Z`,
        record: { kind: 'check', event: 'push', ref: 'refs/heads/main', head, ...record },
      },
    );
  }
}

const cost = (total: unknown): JsonObject => ({ cost: { total } as JsonObject });

async function commentOnPullRequest(made: Scenario): Promise<{ run: ActionRun; body: string }> {
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
  const [comment] = session.double.issueComments(OWNER, REPO, 7);
  return { run, body: comment?.body ?? '' };
}

/** The chart for earlier costs and this pull request's, under the scenario's budget (40/60). */
function chart(earlier: readonly number[], total: number): string {
  const all = [...earlier, total];
  const labels = all.map((_, i) =>
    i === all.length - 1 ? '"this PR"' : `"${i - all.length + 1}"`,
  );
  const level = (value: number) => `[${all.map(() => value).join(', ')}]`;
  return [
    '```mermaid',
    'xychart-beta',
    '    title "Cost per change (points)"',
    `    x-axis "Change" [${labels.join(', ')}]`,
    '    y-axis "Points"',
    `    bar [${all.map((value, i) => (i === all.length - 1 ? value : 0)).join(', ')}]`,
    `    line [${all.join(', ')}]`,
    `    line ${level(40)}`,
    `    line ${level(60)}`,
    '```',
  ].join('\n');
}

describe('the trend chart in the Action’s pull request comment', () => {
  it('charts the five earlier changes of the target branch from the shared ledger', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 8)),
    );
    await recordEarlierChanges([cost(12), cost(30), cost(7.5), cost(55), cost(21)]);
    const { run, body } = await commentOnPullRequest(made);
    expect(run.exitCode).toBe(0);
    const total = Number(run.outputs['total-cost']);
    expect(body).toContain(chart([12, 30, 7.5, 55, 21], total));
    expect(body).toContain('Cost of the last 5 changes judged on the target branch');
    expect(run.summary).toContain(chart([12, 30, 7.5, 55, 21], total));
  });

  it('draws no chart, and no empty block, from two earlier changes', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 8)),
    );
    await recordEarlierChanges([cost(12), cost(30)]);
    const { run, body } = await commentOnPullRequest(made);
    expect(run.exitCode).toBe(0);
    expect(body).toContain('<!-- aureus:ledger -->');
    expect(body).not.toContain('mermaid');
    expect(body).not.toContain('Cost trend');
  });

  it('keeps hostile ledger text out of the chart: numbers and fixed words only', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 8)),
    );
    const breakOut = '```\n%%{init: {"theme": "dark"}}%%\n<img src=x onerror=alert(1)>';
    await recordEarlierChanges([
      { ...cost(12), verdict: breakOut, reasons: [breakOut] },
      cost(`1]\n${breakOut}`),
      { ...cost(30), ref: `refs/heads/main\n${breakOut}` },
      { ...cost(8), toolVersion: breakOut },
      cost(Number.MAX_VALUE),
      { cost: breakOut },
      { ...cost(4), kind: breakOut },
      cost(9),
    ]);
    const { run, body } = await commentOnPullRequest(made);
    expect(run.exitCode).toBe(0);
    const total = Number(run.outputs['total-cost']);
    // Only checks on the target branch whose cost is a number a change can have are drawn.
    expect(body).toContain(chart([12, 8, 9], total));
    expect(body).not.toContain('%%{init');
    expect(body).not.toContain('onerror');
    expect(body.split('```').length).toBe(3);
  });
});
