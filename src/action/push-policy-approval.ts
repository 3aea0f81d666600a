import * as core from '@actions/core';
import { policyApprovalEntry } from '../check/record-check.js';
import { openRepository } from '../git/repository.js';
import { firstParentOf } from '../git/revisions.js';
import type { GitHubClient } from '../github/github-client.js';
import { mergedPullRequest } from '../github/merged-pull-request.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { isPermissionDenied } from '../github/request-error.js';
import { approvingReview } from '../github/review-approval.js';
import type { JsonObject } from '../model/json.js';
import type { Report } from '../model/report.js';

/**
 * Who approved the policy loosening a commit brought to the default branch. A push is not
 * blocked for it (the pull request's gate was the place), so the shared ledger records the
 * approving review, by a maintainer or admin, of the final head of the pull request the commit
 * was merged from; or `policyApproval: null` and why there is none. Nothing for a commit that
 * loosens nothing.
 */
export async function pushPolicyApproval(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  report: Report,
  where: { readonly branch: string; readonly root: string },
): Promise<JsonObject> {
  const { branch } = where;
  const headSha = report.change.headSha;
  if (report.policy.loosens.length === 0 || headSha === null) return {};
  // The loosening is the whole push's; a review approves one pull request. Only a push that
  // lands one commit on the branch's first-parent line (a merge or squash of one pull request)
  // can be credited to that pull request's review: several merges in one push could not.
  if (!(await landsOneCommit(where.root, report.change.baseSha, headSha)))
    return unapproved(
      `the push lands more than one commit on ${branch}: a review approves one pull request, so none is credited with the loosening`,
    );
  try {
    const pull = await mergedPullRequest(client, repository, headSha, branch);
    if (pull === undefined)
      return unapproved(
        `no pull request was merged into ${branch} as ${headSha.slice(0, 12)}: the loosening came without a review`,
      );
    const review = await approvingReview(client, repository, pull.number, pull.headSha);
    if (review === undefined)
      return unapproved(
        `pull request #${pull.number} has no approving review of its head ${pull.headSha.slice(0, 12)} by a maintainer or admin`,
      );
    const approval = { ...review.approval, reason: review.body };
    return { policyApproval: policyApprovalEntry(report, approval, pull.headSha, pull.number) };
  } catch (error) {
    if (!isPermissionDenied(error)) throw error;
    core.warning(
      `AUREUS could not read who approved the policy loosening of ${headSha.slice(0, 12)}: the token lacks the permission. To resolve, grant \`pull-requests: read\` to this push job.`,
    );
    return unapproved('the token could not read the pull request and its reviews');
  }
}

/** The entry says there is no approval on record, and why: never an empty field read as fine. */
function unapproved(why: string): JsonObject {
  return { policyApproval: null, policyApprovalMissing: why };
}

/**
 * Whether `head`'s first parent is `base`: the push added one commit to the branch's line. Read
 * from the commit object itself, not git's history walk, which a shallow clone cuts short.
 */
async function landsOneCommit(root: string, base: string | null, head: string): Promise<boolean> {
  if (base === null) return false;
  return (await firstParentOf(await openRepository(root), head)) === base;
}
