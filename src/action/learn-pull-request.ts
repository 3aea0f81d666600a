import { rm } from 'node:fs/promises';
import { runGit } from '../git/git-runner.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { statusOf } from '../github/request-error.js';
import { proposalCodeBlock } from '../learn/render-proposal.js';
import { AureusError } from '../model/errors.js';
import type { GitRemote } from './run-branch.js';

/** One branch per day a proposal was opened: the date says when, the prefix says who. */
const BRANCH_PREFIX = 'aureus/learn-';
const LEARN_BRANCH = /^aureus\/learn-\d{4}-\d{2}-\d{2}$/;
/** A team reviews a policy proposal at most this often. */
const DAYS_BETWEEN = 7;
const DAY_MS = 86_400_000;
const TITLE = 'AUREUS learn: policy proposal';

/** Who the learn commit is by: the workflow's own bot, which pushes it. */
const LEARN_IDENTITY = {
  GIT_AUTHOR_NAME: 'github-actions[bot]',
  GIT_AUTHOR_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
  GIT_COMMITTER_NAME: 'github-actions[bot]',
  GIT_COMMITTER_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
} as const;

export interface LearnedProposal {
  /** The checkout of the default branch the proposal was learned on. */
  readonly root: string;
  readonly repository: RepositoryCoordinates;
  readonly remote: GitRemote;
  /** GITHUB_REF of the run: it must be the default branch. */
  readonly ref: string;
  readonly policyPath: string;
  /** The proposed policy file. */
  readonly policy: string;
  /** `aureus learn`'s text for the proposal. */
  readonly evidence: string;
  readonly now: number;
}

/**
 * Opens the proposal as a pull request from `aureus/learn-<yyyy-mm-dd>`: at most one open at a
 * time (an open one gets the new proposal pushed to its branch, never a second pull request)
 * and at most one new per 7 days, counted from the dated branches. Returns what was done, for
 * the log.
 */
export async function proposeLearnedPolicy(
  client: GitHubClient,
  proposal: LearnedProposal,
): Promise<string> {
  const { repository } = proposal;
  const { data: info } = await client.rest.repos.get({ ...repository });
  const base = info.default_branch;
  if (proposal.ref !== `refs/heads/${base}`)
    throw new AureusError(
      `mode: learn proposes a change to the default branch's policy, and this run is on ${proposal.ref}.`,
      `run the learn workflow on ${base} (a schedule always does; choose ${base} when you dispatch it).`,
    );
  const fullName = `${repository.owner}/${repository.repo}`;
  const open = (
    await client.paginate(client.rest.pulls.list, {
      ...repository,
      state: 'open',
      base,
      per_page: 100,
    })
  ).find(
    // Only a bot's: a person's pull request from a branch of that name is theirs, and its
    // commits are never pushed over.
    (pull) =>
      LEARN_BRANCH.test(pull.head.ref) &&
      pull.head.repo?.full_name === fullName &&
      pull.user?.type === 'Bot',
  );
  if (open !== undefined) {
    if ((await fileAt(client, repository, proposal.policyPath, open.head.sha)) === proposal.policy)
      return `AUREUS learn: #${open.number} already proposes this policy; nothing is pushed.`;
    const commit = await learnCommit(proposal);
    await push(proposal, commit, open.head.ref, open.head.sha);
    return `AUREUS learn: pushed the new proposal to ${open.head.ref}, the branch of the open #${open.number}.`;
  }
  const recent = await recentLearnPullRequest(client, repository, proposal.now);
  if (recent !== undefined)
    return `AUREUS learn: a learn pull request was opened on ${recent.date} (#${recent.number}); the next one may open ${DAYS_BETWEEN} days after it, so nothing is pushed.`;
  const branch = `${BRANCH_PREFIX}${dateOf(proposal.now)}`;
  const commit = await learnCommit(proposal);
  await push(proposal, commit, branch, null);
  const { data: pull } = await client.rest.pulls.create({
    ...repository,
    title: TITLE,
    head: branch,
    base,
    body: pullRequestBody(proposal),
  });
  return `AUREUS learn: Opened pull request #${pull.number} from ${branch}.`;
}

/** A learn pull request opened within the last 7 days, found by its dated branch. */
async function recentLearnPullRequest(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  now: number,
): Promise<{ date: string; number: number } | undefined> {
  for (let days = 0; days < DAYS_BETWEEN; days++) {
    const date = dateOf(now - days * DAY_MS);
    const { data } = await client.rest.pulls.list({
      ...repository,
      state: 'all',
      head: `${repository.owner}:${BRANCH_PREFIX}${date}`,
      per_page: 1,
    });
    const [pull] = data;
    if (pull !== undefined) return { date, number: pull.number };
  }
  return undefined;
}

/**
 * The pull request's body: what it is, then `aureus learn`'s text in a code block, so ledger
 * text (override reasons, names) is shown, never rendered, mentioned or linked.
 */
function pullRequestBody(proposal: LearnedProposal): string {
  const { block, cut } = proposalCodeBlock(proposal.evidence);
  return [
    `What \`aureus learn --shared\` proposes for \`${proposal.policyPath}\`, learned from the shared ledger and the history of the default branch. It changes the policy, so AUREUS's own check asks for a maintainer's approval; merge it only if the evidence convinces you.`,
    '',
    block,
    ...(cut ? ['', 'The evidence goes on: run `aureus learn --shared` to see all of it.'] : []),
  ].join('\n');
}

/**
 * The commit of the proposed policy on the checkout's HEAD, made with plumbing through an index
 * of its own: no hook of the repository runs and the working tree is not touched.
 */
async function learnCommit(proposal: LearnedProposal): Promise<string> {
  const { root } = proposal;
  const out = async (args: string[], options: Parameters<typeof runGit>[2] = {}) =>
    (await runGit(root, args, options)).stdout.toString('utf8').trim();
  const prefix = await out(['rev-parse', '--show-prefix']);
  const blob = await out(['hash-object', '-w', '--stdin'], { input: proposal.policy });
  const index = await out([
    'rev-parse',
    '--path-format=absolute',
    '--git-path',
    'aureus-learn-index',
  ]);
  const withIndex = { env: { GIT_INDEX_FILE: index } };
  try {
    await out(['read-tree', 'HEAD'], withIndex);
    await out(
      ['update-index', '--add', '--cacheinfo', `100644,${blob},${prefix}${proposal.policyPath}`],
      withIndex,
    );
    const tree = await out(['write-tree'], withIndex);
    return await out(['commit-tree', '--no-gpg-sign', tree, '-p', 'HEAD', '-F', '-'], {
      env: LEARN_IDENTITY,
      input: `AUREUS learn: propose a policy change learned from the ledger\n\nThe evidence is in the pull request.\n`,
    });
  } finally {
    await rm(index, { force: true });
  }
}

/** Pushes `commit` to `branch`: a new branch, or (with its current head) the open one's, leased. */
async function push(
  proposal: LearnedProposal,
  commit: string,
  branch: string,
  current: string | null,
): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const lease = current === null ? [] : [`--force-with-lease=${ref}:${current}`];
  await runGit(
    proposal.root,
    [
      '-c',
      'core.hooksPath=/dev/null',
      'push',
      '--quiet',
      '--no-verify',
      ...lease,
      proposal.remote.url,
      `${commit}:${ref}`,
    ],
    proposal.remote.options,
  );
}

async function fileAt(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  path: string,
  ref: string,
): Promise<string | null> {
  try {
    const { data } = await client.rest.repos.getContent({ ...repository, path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return null;
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

function dateOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
