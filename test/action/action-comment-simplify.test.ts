import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { runGit } from '../support/git-fixture.js';
import { addSimplifiableFeature } from '../support/simplifiable-feature.js';
import { runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { issueCommentEvent, type Sender } from './support/command-payloads.js';
import { OWNER, REPO, type Scenario } from './support/pull-request-scenario.js';

/** The job token of a workflow on issue_comment, with the README's permissions. */
const JOB_TOKEN = 'ghs_comment_job';
const WRITER: Sender = { login: 'writer', id: 5002, type: 'User' };

const session = useActionTestSession({
  [JOB_TOKEN]: {
    actions: 'write',
    contents: 'read',
    issues: 'write',
    metadata: 'read',
    pull_requests: 'write',
  },
});

/** Reflexion's triggers are not met by this small change: only the request runs it. */
const POLICY = `version: 1
simplification:
  auto_commit: false
`;

/**
 * The pull request #7 on GitHub (its head at refs/pull/7/head on the remote) and the checkout an
 * issue_comment job has: the default branch, at depth 1.
 */
async function commentScenario(): Promise<{ made: Scenario; workspace: string }> {
  const made = await session.scenario(addSimplifiableFeature, POLICY);
  const bare = made.bareUrl.replace('file://', '');
  runGit(made.origin.dir, ['push', '--quiet', bare, `feature:refs/pull/7/head`]);
  const workspace = join(made.runnerDir, '..', 'default-branch');
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
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 7,
    baseSha: made.baseSha,
    headSha: made.headSha,
    headRef: 'feature',
  });
  session.double.setPermission(OWNER, REPO, { login: WRITER.login, id: WRITER.id }, 'write');
  return { made, workspace };
}

describe('/aureus simplify on a pull request, in the Action', () => {
  it("judges the pull request's head and delivers its verified patches in a review", async () => {
    const { made, workspace } = await commentScenario();
    const result = await runAction({
      runnerDir: made.runnerDir,
      workspace,
      eventName: 'issue_comment',
      event: issueCommentEvent(7, '/aureus simplify', WRITER, { onPullRequest: true }),
      sha: made.baseSha,
      apiUrl: session.double.url,
      inputs: { 'github-token': JOB_TOKEN },
      runnerEnv: { GITHUB_RUN_ID: '77', GITHUB_RUN_ATTEMPT: '1' },
    });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('it was asked for with `/aureus simplify`');
    expect(
      session.double.requests().map((request) => `${request.method} ${request.operationId}`),
    ).toEqual([
      'GET repos/get-collaborator-permission-level',
      'GET pulls/get',
      'GET git/get-commit', // is the head AUREUS's own commit?
      'GET pulls/list-reviews', // delivered already?
      'POST pulls/create-review',
    ]);
    const [review] = session.double.reviews(OWNER, REPO, 7);
    expect(review?.body).toContain(`<!-- aureus:simplify head=${made.headSha} -->`);
    expect(review?.body).toContain('2 verified simplifications');
    expect(review?.body).toContain('Not committed, because simplification.auto_commit is off');
    expect(session.double.reviewComments(OWNER, REPO, 7)).toHaveLength(1);
    // The work tree of the head is gone; the workspace is the default branch, as it was.
    expect(runGit(workspace, ['worktree', 'list']).trim().split('\n')).toHaveLength(1);
    expect(runGit(workspace, ['rev-parse', 'HEAD']).trim()).toBe(made.baseSha);
  });
});
