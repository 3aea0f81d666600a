import { policyApprovalMarker, type RecordedApproval } from '../github/budget-approval-marker.js';
import type { GitHubClient } from '../github/github-client.js';
import type { StickyCommentTarget } from '../github/sticky-comment.js';
import type { Report } from '../model/report.js';
import { escapeMarkdown } from '../report/markdown-escape.js';
import type { PendingApproval } from './budget-approval.js';

/**
 * Answers `/aureus approve-policy` once the head has been judged with it, as `recordApproval`
 * does for a budget: only a loosening is approved, only for the commit judged, and the reply
 * carries the hidden record later evaluations of the same head find. A replayed job finds its
 * own record and does not post it twice.
 */
export async function recordPolicyApproval(
  client: GitHubClient,
  target: StickyCommentTarget & { readonly headSha: string; readonly approval: PendingApproval },
  report: Report,
  recorded: readonly RecordedApproval[],
): Promise<void> {
  const { approval, headSha } = target;
  const short = headSha.slice(0, 12);
  const loosened = report.policy.loosens;
  let body: string;
  if (loosened.length === 0) {
    body = `Nothing to approve: ${short} does not loosen the policy.`;
  } else {
    const record: RecordedApproval = { headSha, ...approval };
    if (recorded.some((known) => sameApproval(known, record))) return;
    body = [
      policyApprovalMarker(record),
      `Policy loosening approved for ${short} by ${escapeMarkdown(`@${approval.approverLogin}`)}: ${escapeMarkdown(approval.reason)}`,
      '',
      ...loosened.map((setting) => `- ${escapeMarkdown(setting)}`),
      '',
      'The approval holds for this commit only: a new push needs a new approval.',
    ].join('\n');
  }
  await client.rest.issues.createComment({
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    body,
  });
}

function sameApproval(a: RecordedApproval, b: RecordedApproval): boolean {
  return a.headSha === b.headSha && a.approverId === b.approverId && a.reason === b.reason;
}
