import { approvalMarker, type RecordedApproval } from '../github/budget-approval-marker.js';
import type { GitHubClient } from '../github/github-client.js';
import type { StickyCommentTarget } from '../github/sticky-comment.js';
import type { Report } from '../model/report.js';
import { escapeMarkdown } from '../report/markdown-escape.js';

/** A maintainer's `/aureus approve-budget <reason>`, their live permission already checked. */
export interface PendingApproval {
  readonly approverId: number;
  readonly approverLogin: string;
  readonly reason: string;
}

/** The approval that applies to a head: the pending one, else the latest recorded for it. */
export function approvalFor(
  headSha: string,
  pending: PendingApproval | undefined,
  recorded: readonly RecordedApproval[],
): PendingApproval | undefined {
  if (pending !== undefined) return pending;
  return recorded.filter((approval) => approval.headSha === headSha).at(-1);
}

/**
 * Answers `/aureus approve-budget` once the head has been judged with it. Only an overrun is
 * approved, and only for the commit judged: the reply carries the hidden record later
 * evaluations of the same head find (a new push has another head and is judged again). A
 * replayed job finds its own record and does not post it twice.
 */
export async function recordApproval(
  client: GitHubClient,
  target: StickyCommentTarget & { readonly headSha: string; readonly approval: PendingApproval },
  report: Report,
  recorded: readonly RecordedApproval[],
): Promise<void> {
  const { approval, headSha } = target;
  const short = headSha.slice(0, 12);
  let body: string;
  if (report.budget.remaining >= 0) {
    body = `Nothing to approve: ${short} is within its budget (${report.cost.total} of ${report.budget.block} points).`;
  } else {
    const record: RecordedApproval = { headSha, ...approval };
    if (recorded.some((known) => sameApproval(known, record))) return;
    body = [
      approvalMarker(record),
      `Budget overrun approved for ${short} by ${escapeMarkdown(`@${approval.approverLogin}`)}: ${escapeMarkdown(approval.reason)}`,
      '',
      `The change costs ${report.cost.total} points, ${-report.budget.remaining} over the budget of ${report.budget.block}. The approval holds for this commit only: a new push is judged again.`,
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
