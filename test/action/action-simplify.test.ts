import { describe, expect, it } from '@jest/globals';
import { simplifyCommitMessage } from '../../src/github/simplify-commit.js';
import { repoAt, runGit } from '../support/git-fixture.js';
import {
  addSimplifiableFeature,
  EXTRA,
  FEATURE_SIMPLIFIED,
} from '../support/simplifiable-feature.js';
import { type ActionRun, runAction } from './support/action-runner.js';
import { useActionTestSession } from './support/action-test-session.js';
import { OWNER, pullRequestEvent, REPO, type Scenario } from './support/pull-request-scenario.js';

/** A pull_request job that may also push (simplification.auto_commit needs `contents: write`). */
const WRITE_TOKEN = 'ghs_pull_request_job_that_may_push';

const session = useActionTestSession({
  [WRITE_TOKEN]: { contents: 'write', metadata: 'read', pull_requests: 'write', checks: 'write' },
});

function policy(autoCommit: boolean): string {
  return `version: 1
budgets:
  change:
    warn: 400
    block: 500
simplification:
  triggers:
    added_loc: 5
  auto_commit: ${autoCommit}
`;
}

async function scenario(autoCommit: boolean): Promise<Scenario> {
  const made = await session.scenario(addSimplifiableFeature, policy(autoCommit));
  registerPull(made);
  return made;
}

function registerPull(made: Scenario): void {
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 7,
    baseSha: made.baseSha,
    headSha: made.headSha,
    headRef: 'feature',
  });
}

function run(
  made: Scenario,
  options: { fork?: boolean; action?: string } = {},
): Promise<ActionRun> {
  return runAction({
    runnerDir: made.runnerDir,
    workspace: made.workspace,
    eventName: 'pull_request',
    event: pullRequestEvent(made, options),
    sha: made.headSha,
    apiUrl: session.double.url,
    inputs: { 'github-token': WRITE_TOKEN },
  });
}

/** The requests after the verdict is published: reflexion's delivery. */
function deliveryOperations(): string[] {
  const all = session.double
    .requests()
    .map((request) => `${request.method} ${request.operationId}`);
  return all.slice(all.indexOf('POST checks/create') + 1);
}

describe('the Action delivers verified simplifications on a pull request', () => {
  it('suggests the small patch, pushes one aureus: simplify commit, and never twice for the same head', async () => {
    const made = await scenario(true);
    const first = await run(made);
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain('Reflexion ran because the change adds');
    expect(deliveryOperations()).toEqual([
      'GET git/get-commit', // is the head AUREUS's own commit?
      'GET pulls/list-reviews', // delivered already?
      'GET git/get-ref',
      'GET git/get-commit',
      'POST git/create-tree',
      'POST git/create-commit',
      'PATCH git/update-ref',
      'POST pulls/create-review',
    ]);

    const pushed = session.double.ref(OWNER, REPO, 'feature');
    expect(pushed).not.toBe(made.headSha);
    expect(session.double.fileAt(OWNER, REPO, pushed ?? '', 'src/feature.ts')?.toString()).toBe(
      FEATURE_SIMPLIFIED,
    );
    // The suggested file is left for the author to accept.
    expect(session.double.fileAt(OWNER, REPO, pushed ?? '', 'src/extra.ts')?.toString()).toBe(
      EXTRA,
    );
    const commit = session.double.requests().find((r) => r.operationId === 'git/create-commit');
    expect(commit?.body).toMatchObject({
      parents: [made.headSha],
      message: expect.stringMatching(
        new RegExp(`^aureus: simplify \\(−4 lines\\)\n[^]*\nAureus-Simplified: ${made.headSha}\n$`),
      ),
    });

    const [review] = session.double.reviews(OWNER, REPO, 7);
    expect(review?.state).toBe('COMMENTED');
    expect(review?.body).toContain(`<!-- aureus:simplify head=${made.headSha} -->`);
    expect(review?.body).toContain('2 verified simplifications');
    expect(review?.body).toContain('1 suggested on the lines below');
    expect(review?.body).toMatch(
      /Committed 1 patch as [0-9a-f]{7} "aureus: simplify \(−4 lines\)"/,
    );
    const comments = session.double.reviewComments(OWNER, REPO, 7);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ path: 'src/extra.ts', line: 1, side: 'RIGHT' });
    expect(comments[0]?.body).toContain('Remove 1 unused import from `src/extra.ts`');
    expect(comments[0]?.body).toMatch(/```suggestion\n```$/);

    // A rerun for the same head (or a redelivery) finds its review and does nothing more.
    session.double.reset();
    const again = await run(made);
    expect(again.exitCode).toBe(0);
    expect(deliveryOperations()).toEqual(['GET git/get-commit', 'GET pulls/list-reviews']);
    expect(session.double.reviews(OWNER, REPO, 7)).toHaveLength(1);
    expect(session.double.ref(OWNER, REPO, 'feature')).toBe(pushed);
  });

  it("judges AUREUS's own commit when it arrives as a new head, and never simplifies it again", async () => {
    const made = await scenario(true);
    // The synchronize event AUREUS's commit causes: the same commit, made on the branch.
    made.origin.write('src/feature.ts', FEATURE_SIMPLIFIED);
    made.origin.git('add', '-A');
    made.origin.git(
      'commit',
      '--quiet',
      '-m',
      simplifyCommitMessage(4, ['Inline `twice` into its only caller'], made.headSha),
    );
    made.headSha = made.origin.git('rev-parse', 'HEAD').trim();
    runGit(made.origin.dir, [
      'push',
      '--quiet',
      '--force',
      made.bareUrl.replace('file://', ''),
      'feature',
    ]);
    const workspace = repoAt(made.workspace);
    workspace.git('fetch', '--quiet', '--depth', '1', 'origin', 'feature');
    workspace.git('checkout', '--quiet', '--detach', 'FETCH_HEAD');
    registerPull(made);

    const judged = await run(made, { action: 'synchronize' });
    expect(judged.exitCode).toBe(0);
    expect(judged.outputs.verdict).toMatch(/^(pass|warn)$/);
    expect(judged.stdout).toContain("The head is AUREUS's own simplification commit");
    expect(deliveryOperations()).toEqual(['GET git/get-commit']);
    expect(session.double.reviews(OWNER, REPO, 7)).toEqual([]);
    expect(session.double.checkRuns(OWNER, REPO).at(-1)?.headSha).toBe(made.headSha);
  });

  it('lists the patches as diffs instead of committing when auto_commit is off', async () => {
    const made = await scenario(false);
    const run1 = await run(made);
    expect(run1.exitCode).toBe(0);
    expect(deliveryOperations()).toEqual([
      'GET git/get-commit',
      'GET pulls/list-reviews',
      'POST pulls/create-review',
    ]);
    expect(session.double.ref(OWNER, REPO, 'feature')).toBe(made.headSha);
    const [review] = session.double.reviews(OWNER, REPO, 7);
    expect(review?.body).toContain('Not committed, because simplification.auto_commit is off');
    expect(review?.body).toContain('<details><summary>Inline `twice`');
    expect(review?.body).toContain('-function twice(value: number): number {');
    expect(session.double.reviewComments(OWNER, REPO, 7)).toHaveLength(1);
  });

  it('delivers nothing on a pull request from a fork, whose token is read-only', async () => {
    const made = await scenario(true);
    const run1 = await run(made, { fork: true });
    expect(run1.exitCode).toBe(0);
    expect(run1.stdout).toContain('Reflexion is not delivered on pull requests from forks');
    expect(deliveryOperations()).toEqual([]);
    expect(session.double.reviews(OWNER, REPO, 7)).toEqual([]);
  });

  it('does not push over a commit that landed on the branch after the analysed head', async () => {
    const made = await scenario(true);
    // Someone pushes while the job runs: the branch no longer points at the analysed head.
    made.origin.write('src/later.ts', 'export const later = 1;\n');
    const later = made.origin.commit('later');
    session.double.addRepository({
      owner: OWNER,
      repo: REPO,
      gitDir: made.origin.dir,
      defaultBranch: 'main',
    });
    registerPull(made);
    const run1 = await run(made);
    expect(run1.exitCode).toBe(0);
    expect(deliveryOperations()).not.toContain('POST git/create-commit');
    expect(session.double.ref(OWNER, REPO, 'feature')).toBe(later);
    const [review] = session.double.reviews(OWNER, REPO, 7);
    expect(review?.body).toContain('No commit: feature moved on since');
    expect(review?.body).toContain('<details><summary>Inline `twice`');
  });

  it('lists what it finds in Python by location, with no patch', async () => {
    const made = await session.scenario((origin) => {
      origin.write(
        'tools/report.py',
        'def _title(x):\n    return x.title()\n\ndef main(name):\n    greeting = "hello"\n    shown = _title(name)\n    return greeting + shown\n\nprint(main("a"))\n',
      );
    }, policy(false));
    registerPull(made);
    const run1 = await run(made);
    expect(run1.exitCode).toBe(0);
    const [review] = session.double.reviews(OWNER, REPO, 7);
    expect(review?.body).toContain('has no verified patch for it');
    expect(review?.body).toContain(
      '- Inline `_title`, a one-statement function called once (`tools/report.py:1`)',
    );
    expect(session.double.reviewComments(OWNER, REPO, 7)).toEqual([]);
  });

  it('puts the suggestions in the body when GitHub will not place them on the lines', async () => {
    const made = await scenario(false);
    session.double.failNext('pulls/create-review', {
      status: 422,
      body: { message: 'Unprocessable Entity', errors: ['Line could not be resolved'] },
    });
    const run1 = await run(made);
    expect(run1.exitCode).toBe(0);
    expect(deliveryOperations().filter((op) => op === 'POST pulls/create-review')).toHaveLength(2);
    const reviews = session.double.reviews(OWNER, REPO, 7);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]?.body).toContain('<details><summary>Remove 1 unused import');
    expect(session.double.reviewComments(OWNER, REPO, 7)).toEqual([]);
  });
});
