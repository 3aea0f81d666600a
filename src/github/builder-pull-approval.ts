import type { Report } from '../model/report.js';
import { livePermission, mayRunCommands } from './collaborator-permission.js';
import type { GitHubClient } from './github-client.js';
import type { ApprovalRequirement } from './last-push-approval.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { standingApprovals } from './review-approval.js';

/**
 * The builder's pull request needs someone else: the rule the App and the Action both apply.
 * What makes a pull request the builder's is decided without trusting it: any pull request
 * whose head branch is named like the builder's (`aureus/issue-<n>-<run id>`, the branch the
 * publish job pushes) is one, since naming a branch so only adds a requirement, it lifts none.
 * Who may not approve it is each entry point's record of who asked (the App's ledger, the
 * issue's triggers for the Action), never an author, a login or a text the pull request carries.
 */
const BUILDER_BRANCH = /^aureus\/issue-(\d+)-([0-9a-z]+)$/;

export function isBuilderBranch(ref: string): boolean {
  return BUILDER_BRANCH.test(ref);
}

/** The issue and run id a builder branch names, or undefined for any other branch. */
export function builderRunOfBranch(
  ref: string,
): { readonly issue: number; readonly runId: string } | undefined {
  const match = BUILDER_BRANCH.exec(ref);
  if (match === null) return undefined;
  return { issue: Number(match[1]), runId: match[2] ?? '' };
}

export interface BuilderPull {
  readonly issue: number;
  readonly runId: string;
  /** Account ids whose approval is not independent: the requester, the pull request's author. */
  readonly notIndependent: readonly number[];
}

/**
 * The approving reviews of `headSha` by people independent of the run (none of
 * `notIndependent`) whose live role is write or higher, up to the `wanted` number
 * (last-push-approval.ts says how many: two, or one where GitHub's own rule covers the pusher). Each
 * reviewer's latest review counts: a later request for changes or a dismissal withdraws an
 * approval, and a review of an earlier commit approves nothing pushed since.
 */
export async function independentApprovers(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  pull: { readonly number: number; readonly head: { readonly sha: string } },
  builder: BuilderPull,
  wanted: number,
): Promise<readonly string[]> {
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const approvals = await standingApprovals(client, coordinates, pull.number, pull.head.sha);
  const approvers: string[] = [];
  for (const { account } of approvals) {
    if (builder.notIndependent.includes(account.id)) continue;
    const permission = await livePermission(client, coordinates, account);
    if (mayRunCommands(permission.role)) approvers.push(account.login);
    if (approvers.length >= wanted) break;
  }
  return approvers;
}

/**
 * The verdict on a builder pull request without enough independent approvals: it blocks, the
 * reason said beside the others (`why`: what the entry point could not establish, when
 * anything). Decided here rather than in the core, which judges changes, not who asked for them;
 * a change that could not be judged in full stays incomplete.
 */
export function withIndependentApproval(
  report: Report,
  builder: BuilderPull,
  approvers: readonly string[],
  required: ApprovalRequirement,
  why?: string,
): Report {
  const pull = `builder pull request (issue #${builder.issue}, run ${builder.runId})`;
  const named = approvers.map((login) => `@${login}`).join(' and ');
  // Why and GitHub's rule, said apart: each reason is shortened on its own where it is shown.
  const basis = required.basis === '' ? [] : [`${pull}: ${required.basis}`];
  if (approvers.length >= required.approvals)
    return {
      ...report,
      reasons: [...report.reasons, `${pull}: ${named} approved this commit.`, ...basis],
    };
  const needs =
    required.approvals === 1
      ? 'needs an approving review of this commit by a person with write access other than the requester and the author'
      : `needs approving reviews of this commit by ${required.approvals} people with write access other than the requester and the author${approvers.length === 0 ? '' : ` (so far ${named})`}: anyone with write access may have pushed commits after the builder's, and none approves their own alone`;
  return {
    ...report,
    verdict: report.verdict === 'incomplete' ? 'incomplete' : 'block',
    reasons: [
      ...report.reasons,
      `${pull}: ${needs}; a new push needs new approvals.`,
      ...(why === undefined ? [] : [`${pull}: ${why}`]),
      ...basis,
    ],
  };
}
