import {
  type RecordedApproval,
  readApprovalMarker,
  readPolicyApprovalMarker,
} from './budget-approval-marker.js';
import type { GitHubClient } from './github-client.js';
import type { StickyCommentTarget } from './sticky-comment.js';

/** What the App keeps in a pull request's comments. */
export interface AureusComments {
  /** The sticky ledger comment, edited in place on every evaluation. */
  readonly sticky?: { readonly id: number; readonly body: string };
  /** Budget approvals, oldest first. */
  readonly approvals: readonly RecordedApproval[];
  /** Approvals of a policy loosening (`/aureus approve-policy`), oldest first. */
  readonly policyApprovals: readonly RecordedApproval[];
}

/**
 * Reads the pull request's comments once and keeps the App's own: the sticky comment (found by
 * its hidden marker) and the budget and policy approvals it recorded. A comment counts only if
 * its author is the App's bot account by numeric id, so nobody can plant an approval or take
 * over the sticky comment by quoting a marker (THREATS rows 4, 5).
 */
export async function readAureusComments(
  client: GitHubClient,
  target: StickyCommentTarget,
  botUserId: number,
  stickyMarker: string,
): Promise<AureusComments> {
  let sticky: AureusComments['sticky'];
  const approvals: RecordedApproval[] = [];
  const policyApprovals: RecordedApproval[] = [];
  const pages = client.paginate.iterator(client.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  for await (const page of pages) {
    for (const comment of page.data) {
      if (comment.user?.id !== botUserId) continue;
      const body = comment.body ?? '';
      // The oldest match wins, so a duplicate left by a race is never the one kept current.
      if (sticky === undefined && body.startsWith(stickyMarker)) sticky = { id: comment.id, body };
      const approval = readApprovalMarker(body);
      if (approval !== undefined) approvals.push(approval);
      const policyApproval = readPolicyApprovalMarker(body);
      if (policyApproval !== undefined) policyApprovals.push(policyApproval);
    }
  }
  return { ...(sticky === undefined ? {} : { sticky }), approvals, policyApprovals };
}
