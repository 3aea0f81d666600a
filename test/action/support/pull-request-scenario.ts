import { join } from 'node:path';
import { makeRepo, type Repo, repoAt, runGit } from '../../support/git-fixture.js';
import type { GitHubApiDouble } from '../../support/github-api-double/index.js';
import { makeTempDir } from '../../support/temp-dir.js';
import { objectAt, webhookExample } from '../../support/webhook-examples.js';

export const OWNER = 'octo';
export const REPO = 'app';

/** A per-change budget small enough that a few dozen added lines block. */
export const SMALL_BUDGET_POLICY = `version: 1
budgets:
  change:
    warn: 40
    block: 60
`;

/** A function of `lines` logical lines, named so that files never repeat each other. */
export function codeLines(name: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, index) => `  const v${index} = ${index};`);
  return `export function ${name}(): number {\n${body.join('\n')}\n  return 0;\n}\n`;
}

export interface Scenario {
  /** The repository behind the "remote" (origin); edit it and push with `publish`. */
  readonly origin: Repo;
  readonly baseSha: string;
  /** The commit under test on the pull request branch. */
  headSha: string;
  /** A shallow clone of the head, as actions/checkout leaves it with fetch-depth 1. */
  readonly workspace: string;
  readonly runnerDir: string;
  /** The bare repository the clone fetches from (file://, so --depth works). */
  readonly bareUrl: string;
  remove(): Promise<void>;
}

/**
 * main with the policy and a small module; `feature` forked from it with `change` applied.
 * The double serves the same repository as octo/app.
 */
export async function makeScenario(
  double: GitHubApiDouble,
  change: (origin: Repo) => void,
  policy: string = SMALL_BUDGET_POLICY,
): Promise<Scenario> {
  const origin = await makeRepo('action-origin');
  origin.write('.aureus/policy.yaml', policy);
  origin.write('src/core.ts', codeLines('core', 3));
  const baseSha = origin.commit('base');
  origin.git('checkout', '--quiet', '-b', 'feature');
  change(origin);
  const headSha = origin.commit('feature');
  const folders = await makeTempDir('action-run');
  runGit(folders.path, ['clone', '--quiet', '--bare', origin.dir, 'origin.git']);
  const bareUrl = `file://${folders.path}/origin.git`;
  runGit(folders.path, [
    'clone',
    '--quiet',
    '--depth',
    '1',
    '--branch',
    'feature',
    bareUrl,
    'workspace',
  ]);
  const runnerDir = join(folders.path, 'runner');
  runGit(folders.path, ['init', '--quiet', 'runner']);
  double.addRepository({ owner: OWNER, repo: REPO, gitDir: origin.dir, defaultBranch: 'main' });
  return {
    origin,
    baseSha,
    headSha,
    workspace: join(folders.path, 'workspace'),
    runnerDir,
    bareUrl,
    async remove() {
      await folders.remove();
      await origin.remove();
    },
  };
}

/** Commits on `feature` in origin, pushes it to the bare remote and moves the workspace there. */
export function pushToFeature(scenario: Scenario, change: (origin: Repo) => void): void {
  change(scenario.origin);
  scenario.headSha = scenario.origin.commit('next push');
  const bare = scenario.bareUrl.replace('file://', '');
  runGit(scenario.origin.dir, ['push', '--quiet', '--force', bare, 'feature']);
  const workspace = repoAt(scenario.workspace);
  workspace.git('fetch', '--quiet', '--depth', '1', 'origin', 'feature');
  workspace.git('checkout', '--quiet', '--detach', 'FETCH_HEAD');
}

/** A real pull_request payload from @octokit/webhooks-examples, pointed at the scenario. */
export function pullRequestEvent(
  scenario: Scenario,
  options: {
    action?: string | undefined;
    number?: number;
    fork?: boolean | undefined;
    title?: string;
  } = {},
): Record<string, unknown> {
  return pointedAt(webhookExample('pull_request', options.action ?? 'opened'), scenario, options);
}

/**
 * A real pull_request_review payload (`submitted`, `edited`, `dismissed`): its pull request
 * pointed at the scenario. The review in it is the example's: AUREUS reads reviews from the API.
 */
export function pullRequestReviewEvent(
  scenario: Scenario,
  options: { action?: string; number?: number } = {},
): Record<string, unknown> {
  const payload = webhookExample('pull_request_review', options.action ?? 'submitted');
  return pointedAt(payload, scenario, options);
}

function pointedAt(
  payload: Record<string, unknown>,
  scenario: Scenario,
  options: { number?: number; fork?: boolean | undefined; title?: string },
): Record<string, unknown> {
  const pull = objectAt(payload, 'pull_request');
  const base = objectAt(pull, 'base');
  const head = objectAt(pull, 'head');
  Object.assign(pull, { number: options.number ?? 7, title: options.title ?? 'Add a feature' });
  Object.assign(base, { sha: scenario.baseSha, ref: 'main' });
  Object.assign(objectAt(base, 'repo'), { full_name: `${OWNER}/${REPO}`, name: REPO });
  Object.assign(head, { sha: scenario.headSha, ref: 'feature' });
  Object.assign(objectAt(head, 'repo'), {
    full_name: options.fork === true ? `forker/${REPO}` : `${OWNER}/${REPO}`,
  });
  Object.assign(objectAt(payload, 'repository'), { full_name: `${OWNER}/${REPO}`, name: REPO });
  Object.assign(payload, { number: options.number ?? 7 });
  return payload;
}
