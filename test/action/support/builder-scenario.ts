import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { triggerRunId } from '../../../src/github/builder-trigger.js';
import { issueSnapshot } from '../../../src/github/issue-snapshot.js';
import { makeRepo, type Repo, repoAt, runGit } from '../../support/git-fixture.js';
import type { GitHubApiDouble } from '../../support/github-api-double/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { objectAt, webhookExample } from '../../support/webhook-examples.js';
import { codeLines, OWNER, REPO } from './pull-request-scenario.js';

export const ISSUE = 5;
export const REQUESTER = 4242;
/**
 * The requester's `/aureus implement` on the issue, the trigger every dispatch names: a fixed id,
 * so the run id derived from it (one trigger, one run) is a constant.
 */
export const TRIGGER_COMMENT = 999_001;
export const RUN_ID = triggerRunId({ owner: OWNER, repo: REPO }, ISSUE, {
  kind: 'comment',
  id: TRIGGER_COMMENT,
});
export const ISSUE_TITLE = 'Add a greeting';
export const ISSUE_BODY = 'Please add `src/greet.ts` exporting `greet()`.';
export const UPDATED_AT = '2026-01-01T00:00:00Z';

/**
 * The builder's two jobs on one repository: `octo/app` as a bare remote the runner pushes to
 * (GITHUB_SERVER_URL is its parent folder, so `<server>/octo/app.git` is it) and the double
 * reads; a depth-1 checkout for the build job, a full one for the publish job; the issue the
 * App was asked to implement, and the snapshot hash it dispatched.
 */
export interface BuilderScenario {
  readonly origin: Repo;
  readonly baseSha: string;
  readonly bare: string;
  readonly serverUrl: string;
  readonly buildWorkspace: string;
  readonly publishWorkspace: string;
  /** Where the runner files go, and where the "downloaded artifact" is put. */
  readonly runnerDir: string;
  readonly snapshot: string;
  remove(): Promise<void>;
}

export async function makeBuilderScenario(
  double: GitHubApiDouble,
  policy: string,
  prepare: (origin: Repo) => void = () => {},
): Promise<BuilderScenario> {
  const origin = await makeRepo('builder-origin');
  origin.write('.aureus/policy.yaml', policy);
  prepare(origin);
  origin.write('.gitignore', '.aureus/local/\naureus-run/\n');
  origin.write('src/core.ts', codeLines('core', 3));
  const baseSha = origin.commit('base');
  const folders = await makeTempDir('builder-run');
  const bare = join(folders.path, 'server', OWNER, `${REPO}.git`);
  mkdirSync(join(folders.path, 'server', OWNER), { recursive: true });
  runGit(folders.path, ['clone', '--quiet', '--bare', origin.dir, bare]);
  const buildWorkspace = join(folders.path, 'build');
  const publishWorkspace = join(folders.path, 'publish');
  runGit(folders.path, ['clone', '--quiet', '--depth', '1', `file://${bare}`, buildWorkspace]);
  runGit(folders.path, ['clone', '--quiet', `file://${bare}`, publishWorkspace]);
  const runnerDir = join(folders.path, 'runner');
  mkdirSync(runnerDir);
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: bare, defaultBranch: 'main' });
  double.addIssue({
    owner: OWNER,
    repo: REPO,
    number: ISSUE,
    title: ISSUE_TITLE,
    body: ISSUE_BODY,
    updatedAt: UPDATED_AT,
  });
  const requester = { login: 'ada', id: REQUESTER, type: 'User' as const };
  double.setPermission(OWNER, REPO, requester, 'write');
  double.addIssueComment({
    owner: OWNER,
    repo: REPO,
    issueNumber: ISSUE,
    user: requester,
    body: '/aureus implement',
    id: TRIGGER_COMMENT,
  });
  const snapshot = issueSnapshot({
    number: ISSUE,
    title: ISSUE_TITLE,
    body: ISSUE_BODY,
    updatedAt: UPDATED_AT,
    comments: [],
  }).hash;
  return {
    origin,
    baseSha,
    bare,
    serverUrl: `file://${join(folders.path, 'server')}`,
    buildWorkspace,
    publishWorkspace,
    runnerDir,
    snapshot,
    async remove() {
      await folders.remove();
      await origin.remove();
    },
  };
}

/** The workflow_dispatch payload the App's dispatch starts the builder workflow with. */
/** The App's bot account: it dispatches the workflow and posts the run's tracking comment. */
export const APP_BOT_ID = 77;

export function builderDispatchEvent(
  scenario: BuilderScenario,
  snapshot: string = scenario.snapshot,
): Record<string, unknown> {
  const payload = webhookExample('workflow_dispatch');
  Object.assign(objectAt(payload, 'repository'), {
    full_name: `${OWNER}/${REPO}`,
    name: REPO,
    default_branch: 'main',
  });
  Object.assign(payload, {
    ref: 'refs/heads/main',
    workflow: '.github/workflows/aureus-builder.yml',
    // The App's installation dispatches it: the sender is the App's bot account.
    sender: { ...objectAt(payload, 'sender'), login: 'aureus[bot]', id: APP_BOT_ID, type: 'Bot' },
    inputs: {
      issue: String(ISSUE),
      snapshot,
      requester: String(REQUESTER),
      run_id: RUN_ID,
      trigger: `comment-${TRIGGER_COMMENT}`,
    },
  });
  return payload;
}

/**
 * A run's artifact made by hand, as a model that got past the agent's own gates (or forged the
 * folder) would leave it: `change` committed on a branch from main, bundled, with a report that
 * claims the run is done.
 */
export function craftedRun(
  scenario: BuilderScenario,
  change: (repo: Repo) => void,
  message = 'crafted',
): string {
  const place = mkdtempSync(join(scenario.runnerDir, 'crafted-'));
  const folder = join(place, 'run');
  const clone = join(place, 'clone');
  runGit(place, ['clone', '--quiet', `file://${scenario.bare}`, clone]);
  const repo = repoAt(clone);
  repo.git('checkout', '--quiet', '-b', 'aureus/crafted');
  change(repo);
  repo.commit(message);
  mkdirSync(folder);
  repo.git('bundle', 'create', '--quiet', join(folder, 'run.bundle'), 'aureus/crafted', '^main');
  const report = {
    schemaVersion: 2,
    id: 'crafted',
    status: 'done',
    branch: 'aureus/crafted',
    startCommit: scenario.baseSha,
    summary: 'Done.',
    spend: { calls: 1, inputTokens: 10, outputTokens: 5, usd: 0 },
    tests: null,
    votes: {
      correctness: { vote: 'not run', reasons: ['no test command'] },
      testQuality: { vote: 'not run', reasons: ['no test command'] },
      elegance: { vote: 'approve', reasons: ['aureus check: pass'] },
      review: { vote: 'approve', reasons: ['small'] },
    },
    decidedBy: 'correctness, test quality and elegance',
    issue: ISSUE,
    run_id: RUN_ID,
    requester: REQUESTER,
    snapshot: scenario.snapshot,
  };
  writeFileSync(join(folder, 'report.json'), JSON.stringify(report));
  return folder;
}
