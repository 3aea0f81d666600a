import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { checkLine } from '../../src/memory/journal-format.js';
import { readSharedLedgerTip } from '../../src/memory/shared-ledger-entries.js';
import { runGit } from '../support/git-fixture.js';
import { secondaryRateLimit } from '../support/github-api-double/index.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';
import { runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import {
  codeLines,
  OWNER,
  pullRequestEvent,
  REPO,
  type Scenario,
} from './support/pull-request-scenario.js';

const PUSH_TOKEN = 'ghs_push_job';
const PR_TOKEN = 'ghs_pull_request_job';
const ROOMY_POLICY = 'version: 1\nbudgets:\n  change:\n    warn: 900000\n    block: 1000000\n';

const session = useActionTestSession({
  [PUSH_TOKEN]: { contents: 'write', metadata: 'read', checks: 'write' },
  [PR_TOKEN]: { contents: 'read', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

/** Fast-forwards main to the feature branch on the remote and checks main out at depth 1. */
function mergeToMain(made: Scenario): string {
  made.origin.git('checkout', '--quiet', 'main');
  made.origin.git('merge', '--quiet', '--ff-only', 'feature');
  runGit(made.origin.dir, ['push', '--quiet', made.bareUrl.replace('file://', ''), 'main']);
  const folder = join(made.runnerDir, '..', `main-${Date.now()}`);
  runGit(join(made.runnerDir, '..'), [
    'clone',
    '--quiet',
    '--depth',
    '1',
    '--branch',
    'main',
    made.bareUrl,
    folder,
  ]);
  return folder;
}

function pushEvent(made: Scenario): Record<string, unknown> {
  const payload = webhookExample('push');
  Object.assign(payload, {
    ref: 'refs/heads/main',
    before: made.baseSha,
    after: made.headSha,
    deleted: false,
    created: false,
  });
  Object.assign(objectAt(payload, 'repository'), {
    full_name: `${OWNER}/${REPO}`,
    name: REPO,
    default_branch: 'main',
  });
  return payload;
}

describe('the Action on other events', () => {
  it('on a push to the default branch records one shared-ledger entry per commit, once', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 4)),
    );
    const workspace = mergeToMain(made);
    const settings = {
      runnerDir: made.runnerDir,
      workspace,
      eventName: 'push',
      event: pushEvent(made),
      sha: made.headSha,
      apiUrl: session.double.url,
      inputs: { 'github-token': PUSH_TOKEN },
    };
    const first = await runAction(settings);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain(`Recorded ${made.headSha} in the shared ledger`);
    const file = session.double.fileAt(
      OWNER,
      REPO,
      'aureus-ledger',
      `entries/${made.headSha}.json`,
    );
    const line = checkLine((file?.toString('utf8') ?? '').trimEnd());
    expect(line.kind).toBe('valid');
    if (line.kind === 'unparseable') throw new Error('unparseable ledger line');
    expect(line.line.record).toMatchObject({
      kind: 'check',
      head: made.headSha,
      event: 'push',
      ref: 'refs/heads/main',
    });
    const tip = session.double.fileAt(OWNER, REPO, 'aureus-ledger', 'tip.json');
    expect(readSharedLedgerTip(tip?.toString('utf8') ?? '')).toEqual({
      entry: `entries/${made.headSha}.json`,
      hash: line.line.hash,
      // The first entry is the oldest: compaction counts its retention from here.
      since: line.line.at,
    });
    const branchCommit = session.double.ref(OWNER, REPO, 'heads/aureus-ledger');

    session.double.reset();
    const again = await runAction(settings);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('is already in the shared ledger');
    expect(session.double.ref(OWNER, REPO, 'heads/aureus-ledger')).toBe(branchCommit);
    const writes = session.double.requests().filter((request) => request.method !== 'GET');
    expect(writes.map((request) => request.operationId)).toEqual(['checks/create']);
  });

  it('on a merge group checks the queue commit and concludes its check run', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 4)),
    );
    const payload = webhookExample('merge_group');
    Object.assign(objectAt(payload, 'merge_group'), {
      base_sha: made.baseSha,
      head_sha: made.headSha,
    });
    Object.assign(objectAt(payload, 'repository'), { full_name: `${OWNER}/${REPO}`, name: REPO });
    const run = await runAction({
      runnerDir: made.runnerDir,
      workspace: made.workspace,
      eventName: 'merge_group',
      event: payload,
      sha: made.headSha,
      apiUrl: session.double.url,
      inputs: { 'github-token': PR_TOKEN },
    });
    expect(run.exitCode).toBe(0);
    expect(session.double.requests().map((request) => request.operationId)).toEqual([
      'checks/create',
    ]);
    expect(session.double.checkRuns(OWNER, REPO).at(-1)).toMatchObject({
      headSha: made.headSha,
      conclusion: 'success',
    });
  });

  it('on workflow_dispatch compares the base input with the run commit, and asks for a missing base', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 80)),
    );
    const payload = webhookExample('workflow_dispatch');
    Object.assign(objectAt(payload, 'repository'), { full_name: `${OWNER}/${REPO}`, name: REPO });
    const settings = {
      runnerDir: made.runnerDir,
      workspace: made.workspace,
      eventName: 'workflow_dispatch',
      event: payload,
      sha: made.headSha,
      apiUrl: session.double.url,
    };
    const run = await runAction({
      ...settings,
      inputs: { 'github-token': PR_TOKEN, base: made.baseSha },
    });
    expect(run.exitCode).toBe(1);
    expect(run.outputs.verdict).toBe('block');
    expect(session.double.checkRuns(OWNER, REPO).at(-1)).toMatchObject({
      headSha: made.headSha,
      conclusion: 'failure',
    });
    const unasked = await runAction({ ...settings, inputs: { 'github-token': PR_TOKEN } });
    expect(unasked.exitCode).toBe(2);
    expect(unasked.stdout).toContain('a workflow_dispatch run needs the revision to compare with');
  });

  it('waits out a secondary rate limit and still posts exactly one comment', async () => {
    const made = await session.scenario((origin) =>
      origin.write('src/feature.ts', codeLines('feature', 4)),
    );
    session.double.failNext('issues/create-comment', secondaryRateLimit(1));
    const run = await runAction({
      runnerDir: made.runnerDir,
      workspace: made.workspace,
      eventName: 'pull_request',
      event: pullRequestEvent(made, { number: 21 }),
      sha: made.headSha,
      apiUrl: session.double.url,
      inputs: { 'github-token': PR_TOKEN },
    });
    expect(run.exitCode).toBe(0);
    expect(session.double.callsTo('issues/create-comment').map((call) => call.status)).toEqual([
      403, 201,
    ]);
    expect(session.double.issueComments(OWNER, REPO, 21)).toHaveLength(1);
  });

  for (const count of [301, 3001]) {
    it(`judges a pull request of ${count} changed files and keeps the comment under 65,000 bytes`, async () => {
      const made = await session.scenario((origin) => {
        for (let index = 0; index < count; index++)
          origin.write(`src/many/file-${index}.ts`, `export const value${index} = ${index};\n`);
      }, ROOMY_POLICY);
      const run = await runAction({
        runnerDir: made.runnerDir,
        workspace: made.workspace,
        eventName: 'pull_request',
        event: pullRequestEvent(made, { number: count }),
        sha: made.headSha,
        apiUrl: session.double.url,
        inputs: { 'github-token': PR_TOKEN, 'fail-on': 'budget,incomplete' },
      });
      expect(run.exitCode).toBe(0);
      expect(run.outputs.verdict).toMatch(/^(pass|warn|block)$/);
      const [comment] = session.double.issueComments(OWNER, REPO, count);
      expect(Buffer.byteLength(comment?.body ?? '', 'utf8')).toBeLessThanOrEqual(65_000);
      expect(comment?.body).toContain(`| loc | +${count} |`);
    });
  }
});
