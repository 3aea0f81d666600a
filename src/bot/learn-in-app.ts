import { readDefaultBranchPolicyFile } from '../check/default-branch-policy.js';
import { POLICY_PATH } from '../check/policy-at-commit.js';
import type { GitHubClient } from '../github/github-client.js';
import { statusOf } from '../github/request-error.js';
import { DAY_MS } from '../learn/learn-input.js';
import { learnedPolicy } from '../learn/learned-policy.js';
import { proposalCodeBlock, renderProposal } from '../learn/render-proposal.js';
import { appendToAppLedger, appLedgerPath } from '../memory/app-ledger.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import { readJournal } from '../memory/journal.js';
import type { AppServices } from './evaluation-request.js';
import type { AppRepository } from './judged-change.js';

/** A team reviews a policy proposal at most this often, as with the Action's learn pull request. */
const DAYS_BETWEEN = 7;
const TITLE = 'AUREUS learn: policy proposal';
/** How the evidence names the ledger its lines come from. */
const LEDGER_NAME = "the App's ledger";

export interface LearnInAppRequest {
  readonly client: GitHubClient;
  readonly services: AppServices;
  readonly repository: AppRepository;
  readonly defaultBranch: string;
  readonly now: number;
}

/**
 * After a pull request merges into the default branch: what `aureus learn` proposes from the
 * App's own ledger, posted as an issue when the default branch's policy opts in
 * (`learning.open_pull_request`). An issue, not a pull request: the App holds no `contents:
 * write` (minimal permissions, THREATS row 30), so it cannot push the proposed file; the issue
 * carries the diff to apply, and the Action's `mode: learn` opens it as a pull request. At most
 * one post per 7 days; the App's own open proposal is updated rather than a second opened, and
 * nothing is posted from a ledger that does not verify. Returns what was done, for the log.
 */
export async function proposeLearnInApp(request: LearnInAppRequest): Promise<string> {
  const { client, services, repository, now } = request;
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const file = await readDefaultBranchPolicyFile(client, repository, request.defaultBranch, {
    cacheDir: appCacheFolder(services.dataDir),
  });
  if (!file.policy.learning.open_pull_request) return 'off (learning.open_pull_request)';
  const ledger = await readJournal(appLedgerPath(services.dataDir, repository.id));
  if (ledger.problems.length > 0)
    return `not proposed: the App's ledger does not verify (${ledger.problems.length} damaged lines)`;
  const last = ledger.entries.findLast((entry) => entry.record.kind === 'learn-proposal');
  if (last !== undefined && now - Date.parse(last.at) < DAYS_BETWEEN * DAY_MS)
    return `not proposed: the last proposal was posted on ${last.at.slice(0, 10)}`;
  const learned = learnedPolicy(
    {
      policy: file.policy,
      lines: ledger.entries.map((entry) => ({ ledger: LEDGER_NAME, entry })),
      // The App reads no git history: it calibrates no weights (the Action's learn job does).
      commits: [],
      historyCut: false,
      now,
      windowDays: file.policy.learning.window_days,
    },
    file.text,
    POLICY_PATH,
  );
  if (learned.proposal.edits.length === 0) return 'nothing to propose';
  const body = issueBody(renderProposal(learned.proposal, learned.diff, POLICY_PATH), file.commit);
  const open = await openProposalIssue(client, coordinates, last, services.identity.botUserId);
  const issue =
    open === undefined
      ? (await client.rest.issues.create({ ...coordinates, title: TITLE, body })).data.number
      : (await client.rest.issues.update({ ...coordinates, issue_number: open, body })).data.number;
  await appendToAppLedger(services.dataDir, repository.id, `learn-proposal:${now}`, {
    kind: 'learn-proposal',
    issue,
    commit: file.commit,
    edits: learned.proposal.edits.map((edit) => edit.path.join('.')),
  });
  return `${open === undefined ? 'opened' : 'updated'} issue #${issue}`;
}

/**
 * The issue of the last proposal when it is still open and the App's own: a person's issue, or
 * one closed by a maintainer (declined), is never written to.
 */
async function openProposalIssue(
  client: GitHubClient,
  coordinates: { readonly owner: string; readonly repo: string },
  last: { readonly record: Readonly<Record<string, unknown>> } | undefined,
  botUserId: number,
): Promise<number | undefined> {
  const number = last?.record.issue;
  if (typeof number !== 'number') return undefined;
  try {
    const { data } = await client.rest.issues.get({ ...coordinates, issue_number: number });
    return data.state === 'open' && data.user?.id === botUserId ? number : undefined;
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 410) return undefined;
    throw error;
  }
}

function issueBody(evidence: string, commit: string): string {
  const { block, cut } = proposalCodeBlock(evidence);
  return [
    `What \`aureus learn\` proposes for \`${POLICY_PATH}\` (as of ${commit.slice(0, 12)}), learned from the checks, overrides and approvals in the AUREUS App's ledger of this repository. The App changes no file: to adopt the proposal, apply the diff below in a pull request (AUREUS's check asks a maintainer to approve a policy change), or close this issue. The App reads no git history, so it proposes no calibrated pricing weights; \`aureus learn\` on a clone, or the Action's \`mode: learn\`, does.`,
    '',
    block,
    ...(cut
      ? ['', 'The evidence goes on: run `aureus learn --file <the App ledger>` to see all of it.']
      : []),
  ].join('\n');
}
