import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { APP_PERMISSIONS } from '../../src/bot/app-events.js';
import { isolateGit, makeRepo, type Repo } from '../support/git-fixture.js';
import { addSimplifiableFeature, FEATURE_SIMPLIFIED } from '../support/simplifiable-feature.js';
import { commentPayload, OWNER, pullRequestPayload, REPO } from './support/app-payloads.js';
import { operations } from './support/app-repository.js';
import { type AppSession, startAppSession } from './support/app-session.js';

const POLICY = `version: 1
budgets:
  change:
    warn: 400
    block: 500
simplification:
  triggers:
    added_loc: 5
  auto_commit: true
`;

const ADMIN = { login: 'ada', id: 7001, type: 'User' as const };

let restoreGit: () => Promise<void>;
beforeAll(async () => {
  restoreGit = await isolateGit();
});
afterAll(async () => {
  await restoreGit();
});

/**
 * A session whose repository has the policy above and pull request 5 with two simplifications
 * (and the `extra` files, added by the pull request too).
 */
async function withPullRequest(
  session: AppSession,
  headRepo?: string,
  extra: Readonly<Record<string, string>> = {},
  options: { policy?: string; simplifiable?: boolean } = {},
): Promise<{ origin: Repo & { remove(): Promise<void> }; headSha: string }> {
  const origin = await makeRepo('app-simplify-origin');
  origin.write('.aureus/policy.yaml', options.policy ?? POLICY);
  origin.write('src/core.ts', 'export function core(): number {\n  return 1;\n}\n');
  const baseSha = origin.commit('base');
  origin.git('checkout', '--quiet', '-b', 'feature');
  if (options.simplifiable !== false) addSimplifiableFeature(origin);
  for (const [path, text] of Object.entries(extra)) origin.write(path, text);
  const headSha = origin.commit('feature');
  session.double.addRepository({
    owner: OWNER,
    repo: REPO,
    gitDir: origin.dir,
    defaultBranch: 'main',
  });
  session.double.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 5,
    baseSha,
    headSha,
    headRef: 'feature',
    ...(headRepo === undefined ? {} : { headRepo }),
  });
  await session.send('pull_request', pullRequestPayload('opened', { number: 5, baseSha, headSha }));
  await session.app.idle();
  return { origin, headSha };
}

function expectCleanRequests(session: AppSession): void {
  expect(session.double.invalidRequests()).toEqual([]);
  expect(session.double.forbiddenRequests()).toEqual([]);
  expect(session.double.unexpectedRequests()).toEqual([]);
}

describe('the App delivers verified simplifications', () => {
  it('with the manifest permissions: a suggestion, the rest listed, no push attempted', async () => {
    const session = await startAppSession(OWNER);
    try {
      const { origin, headSha } = await withPullRequest(session);
      expectCleanRequests(session);
      const calls = operations(session.double);
      const concluded = calls.lastIndexOf('checks/update');
      // Reflexion follows the conclusion, as a job of its own.
      expect(calls.slice(concluded + 1)).toEqual([
        'pulls/get',
        'apps/get-repo-installation',
        'git/get-commit',
        'pulls/list-reviews',
        'git/get-tree',
        'git/get-blob', // src/core.ts: the pull request's own files came with the change
        'pulls/create-review',
      ]);
      expect(session.double.ref(OWNER, REPO, 'feature')).toBe(headSha);
      const [review] = session.double.reviews(OWNER, REPO, 5);
      expect(review?.user).toBe('aureus[bot]');
      expect(review?.body).toContain(`<!-- aureus:simplify head=${headSha} -->`);
      expect(review?.body).toContain(
        "Not committed, because the App's installation may not push (grant it Contents: write to let it commit)",
      );
      expect(review?.body).toContain('-function twice(value: number): number {');
      const comments = session.double.reviewComments(OWNER, REPO, 5);
      expect(comments).toHaveLength(1);
      expect(comments[0]).toMatchObject({ path: 'src/extra.ts', line: 1, user: 'aureus[bot]' });
      expect(comments[0]?.body).toMatch(/```suggestion\n```$/);
      await origin.remove();
    } finally {
      await session.close();
    }
  });

  it('granted contents: write: one aureus: simplify commit on the branch, and nothing twice', async () => {
    const session = await startAppSession(OWNER, { ...APP_PERMISSIONS, contents: 'write' });
    try {
      const { origin, headSha } = await withPullRequest(session);
      expectCleanRequests(session);
      const pushed = session.double.ref(OWNER, REPO, 'feature');
      expect(pushed).not.toBe(headSha);
      expect(session.double.fileAt(OWNER, REPO, pushed ?? '', 'src/feature.ts')?.toString()).toBe(
        FEATURE_SIMPLIFIED,
      );
      const [review] = session.double.reviews(OWNER, REPO, 5);
      expect(review?.body).toMatch(
        /Committed 1 patch as [0-9a-f]{7} "aureus: simplify \(−4 lines\)" on feature\./,
      );
      expect(session.double.reviewComments(OWNER, REPO, 5)).toHaveLength(1);

      // `/aureus check` judges the head again in a new check run; reflexion finds its review.
      session.double.reset();
      session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
      await session.send('issue_comment', commentPayload(5, '/aureus check', ADMIN));
      await session.app.idle();
      expectCleanRequests(session);
      const calls = operations(session.double);
      expect(calls).toContain('checks/create');
      expect(calls.slice(calls.lastIndexOf('checks/update') + 1)).toEqual([
        'pulls/get',
        'apps/get-repo-installation',
        'git/get-commit',
        'pulls/list-reviews',
      ]);
      expect(operations(session.double)).not.toContain('git/create-commit');
      expect(session.double.reviews(OWNER, REPO, 5)).toHaveLength(1);
      await origin.remove();
    } finally {
      await session.close();
    }
  });

  it('never pushes to a fork, even when it may push to the repository', async () => {
    const session = await startAppSession(OWNER, { ...APP_PERMISSIONS, contents: 'write' });
    try {
      const { origin, headSha } = await withPullRequest(session, `forker/${REPO}`);
      expectCleanRequests(session);
      expect(operations(session.double)).not.toContain('git/create-commit');
      expect(session.double.ref(OWNER, REPO, 'feature')).toBe(headSha);
      const [review] = session.double.reviews(OWNER, REPO, 5);
      expect(review?.body).toContain('the branch is in a fork, which AUREUS never pushes to');
      expect(session.double.reviewComments(OWNER, REPO, 5)).toHaveLength(1);
      await origin.remove();
    } finally {
      await session.close();
    }
  });

  it('keeps what the head’s package.json publishes, as on a checkout', async () => {
    const session = await startAppSession(OWNER);
    try {
      const { origin } = await withPullRequest(session, undefined, {
        'package.json': `${JSON.stringify({ name: 'dates', exports: { './format': './dist/format.js' } })}\n`,
        'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'ESNext', moduleResolution: 'Bundler', outDir: 'dist', rootDir: 'src' } })}\n`,
        'src/format.ts':
          'export function formatDate(date: Date): string {\n  return date.toISOString();\n}\n',
        'src/stale.ts':
          'export function stale(): number {\n  return 1;\n}\nexport const kept = 2;\n',
        'src/uses-stale.ts': "import { kept } from './stale.js';\n\nconsole.log(kept);\n",
      });
      expectCleanRequests(session);
      const [review] = session.double.reviews(OWNER, REPO, 5);
      expect(review?.body).not.toContain('formatDate');
      expect(review?.body).toContain('-function twice(value: number): number {');
      const suggested = session.double.reviewComments(OWNER, REPO, 5).map(({ path }) => path);
      expect(suggested.sort()).toEqual(['src/extra.ts', 'src/stale.ts']);
      await origin.remove();
    } finally {
      await session.close();
    }
  });

  it('runs on a writer’s /aureus simplify where the triggers would not, and says why in the review', async () => {
    const session = await startAppSession(OWNER);
    try {
      const policy = POLICY.replace('added_loc: 5', 'added_loc: 1000\n    new_abstraction: false');
      const { origin, headSha } = await withPullRequest(session, undefined, {}, { policy });
      expectCleanRequests(session);
      // Not due: the check concludes and reflexion asks nothing more of the API.
      expect(session.double.reviews(OWNER, REPO, 5)).toEqual([]);
      expect(operations(session.double)).not.toContain('pulls/create-review');

      session.double.reset();
      const reader = { login: 'rita', id: 7002, type: 'User' as const };
      session.double.setPermission(OWNER, REPO, reader, 'read');
      await session.send('issue_comment', commentPayload(5, '/aureus simplify', reader));
      await session.app.idle();
      expect(operations(session.double)).toEqual(['repos/get-collaborator-permission-level']);

      session.double.reset();
      session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
      await session.send('issue_comment', commentPayload(5, '/aureus simplify', ADMIN));
      await session.app.idle();
      expectCleanRequests(session);
      const [review] = session.double.reviews(OWNER, REPO, 5);
      expect(review?.body).toContain(`<!-- aureus:simplify head=${headSha} -->`);
      expect(review?.body).toContain('it was asked for with `/aureus simplify`');
      expect(session.double.reviewComments(OWNER, REPO, 5)).toHaveLength(1);
      // The review is the answer: no comment beside it.
      expect(session.double.issueComments(OWNER, REPO, 5).map(({ body }) => body)).not.toEqual(
        expect.arrayContaining([expect.stringContaining('**AUREUS simplify**')]),
      );

      // Asked again on the same head: the review is there already, and the reply says so.
      session.double.reset();
      await session.send('issue_comment', commentPayload(5, '/aureus simplify', ADMIN));
      await session.app.idle();
      expectCleanRequests(session);
      const replies = session.double
        .issueComments(OWNER, REPO, 5)
        .filter(({ body }) => body.startsWith('**AUREUS simplify**'));
      expect(replies.map(({ body }) => body)).toEqual([
        `**AUREUS simplify** on ${headSha.slice(0, 7)}:\n\n- The simplifications for this head were delivered already, in its AUREUS review.`,
      ]);
      expect(session.double.reviews(OWNER, REPO, 5)).toHaveLength(1);
      await origin.remove();
    } finally {
      await session.close();
    }
  });

  it('answers /aureus simplify on the pull request when there is nothing to deliver, its paths made inert', async () => {
    const session = await startAppSession(OWNER);
    try {
      const { origin, headSha } = await withPullRequest(
        session,
        undefined,
        { 'src/@everyone.py': 'def hello():\n    return 1\n' },
        { simplifiable: false },
      );
      session.double.reset();
      session.double.setPermission(OWNER, REPO, ADMIN, 'admin');
      await session.send('issue_comment', commentPayload(5, '/aureus simplify', ADMIN));
      await session.app.idle();
      expectCleanRequests(session);
      expect(session.double.reviews(OWNER, REPO, 5)).toEqual([]);
      const replies = session.double
        .issueComments(OWNER, REPO, 5)
        .filter(({ body }) => body.startsWith('**AUREUS simplify**'));
      expect(replies).toHaveLength(1);
      const body = replies[0]?.body ?? '';
      expect(body).toContain(`**AUREUS simplify** on ${headSha.slice(0, 7)}:`);
      expect(body).toContain('0 patches verified');
      expect(body).not.toMatch(/(?<!\w)@everyone/);
      await origin.remove();
    } finally {
      await session.close();
    }
  });
});
