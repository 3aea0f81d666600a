import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { checkLine } from '../../src/memory/journal-format.js';
import type { JsonObject } from '../../src/model/json.js';
import { runGit } from '../support/git-fixture.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { OWNER, REPO, type Scenario } from './support/pull-request-scenario.js';

const PUSH_TOKEN = 'ghs_push_job';
/** A push job granted only what the shared ledger itself needs. */
const NO_PULLS_TOKEN = 'ghs_push_job_without_pull_requests';
/** The repository's policy (SMALL_BUDGET_POLICY) with its per-change block raised tenfold. */
const LOOSENED = 'version: 1\nbudgets:\n  change:\n    warn: 40\n    block: 600\n';
const SETTING = 'budgets.change.block: 60 → 600';
const ADMIN = { login: 'ada', id: 7201 };
const WRITER = { login: 'wren', id: 7202 };

const session = useActionTestSession({
  [PUSH_TOKEN]: { contents: 'write', metadata: 'read', checks: 'write', pull_requests: 'read' },
  [NO_PULLS_TOKEN]: { contents: 'write', metadata: 'read', checks: 'write' },
});

/** A pull request branch whose one commit loosens `.aureus/policy.yaml`. */
async function loosening(): Promise<Scenario> {
  const made = await session.scenario((origin) => origin.write('.aureus/policy.yaml', LOOSENED));
  session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
  session.double.setPermission(OWNER, REPO, WRITER, 'write');
  return made;
}

/**
 * Lands the feature branch on main (a merge commit, or a fast-forward), publishes main and
 * checks it out at depth 1 as actions/checkout does; returns the commit pushed and the clone.
 */
function landOnMain(made: Scenario, how: 'merge' | 'fast-forward') {
  made.origin.git('checkout', '--quiet', 'main');
  if (how === 'merge') made.origin.git('merge', '--quiet', '--no-ff', '-m', 'Merge #41', 'feature');
  else made.origin.git('merge', '--quiet', '--ff-only', 'feature');
  const sha = made.origin.git('rev-parse', 'HEAD');
  runGit(made.origin.dir, ['push', '--quiet', made.bareUrl.replace('file://', ''), 'main']);
  const workspace = join(made.runnerDir, '..', `main-${how}`);
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
  return { sha, workspace };
}

function push(
  made: Scenario,
  landed: { sha: string; workspace: string },
  token: string,
): Promise<ActionRun> {
  const payload = webhookExample('push');
  Object.assign(payload, {
    ref: 'refs/heads/main',
    before: made.baseSha,
    after: landed.sha,
    deleted: false,
    created: false,
  });
  Object.assign(objectAt(payload, 'repository'), {
    full_name: `${OWNER}/${REPO}`,
    name: REPO,
    default_branch: 'main',
  });
  return runAction({
    runnerDir: made.runnerDir,
    workspace: landed.workspace,
    eventName: 'push',
    event: payload,
    sha: landed.sha,
    apiUrl: session.double.url,
    inputs: { 'github-token': token },
  });
}

/** The record of `sha`'s entry on the aureus-ledger branch. */
function sharedLedgerRecord(sha: string): JsonObject {
  const file = session.double.fileAt(OWNER, REPO, 'aureus-ledger', `entries/${sha}.json`);
  const line = checkLine((file?.toString('utf8') ?? '').trimEnd());
  if (line.kind === 'unparseable') throw new Error(`no valid shared-ledger entry for ${sha}`);
  return line.line.record;
}

describe('the Action records who approved a policy loosening that lands on main', () => {
  it("credits no review when the push lands several merges: the loosening may be another pull request's", async () => {
    const made = await loosening();
    landOnMain(made, 'merge');
    // A second, approved pull request merged on top, pushed with the first in one push.
    made.origin.git('checkout', '--quiet', '-b', 'other', 'main');
    made.origin.write('src/other.ts', 'export const other = 1;\n');
    const otherHead = made.origin.commit('other');
    made.origin.git('checkout', '--quiet', 'main');
    made.origin.git('merge', '--quiet', '--no-ff', '-m', 'Merge #42', 'other');
    const sha = made.origin.git('rev-parse', 'HEAD');
    runGit(made.origin.dir, ['push', '--quiet', made.bareUrl.replace('file://', ''), 'main']);
    const workspace = join(made.runnerDir, '..', 'main-two-merges');
    runGit(join(made.runnerDir, '..'), [
      'clone',
      '--quiet',
      '--branch',
      'main',
      made.bareUrl,
      workspace,
    ]);
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 42,
      baseSha: made.baseSha,
      headSha: otherHead,
      mergedAs: sha,
    });
    session.double.addReview({
      owner: OWNER,
      repo: REPO,
      pullNumber: 42,
      commitId: otherHead,
      user: ADMIN,
      state: 'APPROVED',
      body: 'approves #42 only',
    });
    const run = await push(made, { sha, workspace }, PUSH_TOKEN);
    expect(run.exitCode).toBe(0);
    expect(sharedLedgerRecord(sha)).toMatchObject({
      policyLoosened: [SETTING],
      policyApproval: null,
      policyApprovalMissing: expect.stringContaining('the push lands more than one commit on main'),
    });
  });

  it("records the admin's approving review of the merged pull request's final head", async () => {
    const made = await loosening();
    const landed = landOnMain(made, 'merge');
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 41,
      baseSha: made.baseSha,
      headSha: made.headSha,
      mergedAs: landed.sha,
    });
    const review = { owner: OWNER, repo: REPO, pullNumber: 41, commitId: made.headSha };
    session.double.addReview({ ...review, user: WRITER, state: 'APPROVED', body: 'fine by me' });
    session.double.addReview({
      ...review,
      user: ADMIN,
      state: 'APPROVED',
      body: 'The import job needs the room until the split lands.',
    });
    const run = await push(made, landed, PUSH_TOKEN);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`Recorded ${landed.sha} in the shared ledger`);
    expect(sharedLedgerRecord(landed.sha)).toMatchObject({
      head: landed.sha,
      policyLoosened: [SETTING],
      policyApproval: {
        by: '@ada',
        accountId: ADMIN.id,
        reason: 'The import job needs the room until the split lands.',
        head: made.headSha,
        settings: [SETTING],
        pullRequest: 41,
      },
    });
  });

  it('records no approval, and why, when the pull request was approved at an earlier head only', async () => {
    const made = await loosening();
    const landed = landOnMain(made, 'merge');
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 42,
      baseSha: made.baseSha,
      headSha: made.headSha,
      mergedAs: landed.sha,
    });
    session.double.addReview({
      owner: OWNER,
      repo: REPO,
      pullNumber: 42,
      user: ADMIN,
      state: 'APPROVED',
      commitId: made.baseSha,
    });
    const run = await push(made, landed, PUSH_TOKEN);
    expect(run.exitCode).toBe(0);
    const record = sharedLedgerRecord(landed.sha);
    expect(record).toMatchObject({ policyLoosened: [SETTING], policyApproval: null });
    expect(record.policyApprovalMissing).toBe(
      `pull request #42 has no approving review of its head ${made.headSha.slice(0, 12)} by a maintainer or admin`,
    );
  });

  it('records no approval, and why, for a loosening pushed without a pull request', async () => {
    const made = await loosening();
    const landed = landOnMain(made, 'fast-forward');
    const run = await push(made, landed, PUSH_TOKEN);
    expect(run.exitCode).toBe(0);
    const record = sharedLedgerRecord(landed.sha);
    expect(record).toMatchObject({ policyLoosened: [SETTING], policyApproval: null });
    expect(record.policyApprovalMissing).toBe(
      `no pull request was merged into main as ${landed.sha.slice(0, 12)}: the loosening came without a review`,
    );
  });

  it('warns naming pull-requests: read when the token cannot read the pull request', async () => {
    const made = await loosening();
    const landed = landOnMain(made, 'merge');
    session.double.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: 43,
      baseSha: made.baseSha,
      headSha: made.headSha,
      mergedAs: landed.sha,
    });
    const run = await push(made, landed, NO_PULLS_TOKEN);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('grant `pull-requests: read` to this push job');
    expect(sharedLedgerRecord(landed.sha)).toMatchObject({
      policyApproval: null,
      policyApprovalMissing: 'the token could not read the pull request and its reviews',
    });
    // The refused read is the token's, as on GitHub; the afterEach counts it as forbidden.
    expect(session.double.forbiddenRequests().map((request) => request.operationId)).toEqual([
      'repos/list-pull-requests-associated-with-commit',
    ]);
    session.double.reset();
  });
});
