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

/** What an approval command answers: that there is nothing to approve, or the approval. */
export type ApprovalReply =
  | { readonly nothing: string }
  | {
      /** The hidden record later evaluations of the same head find. */
      readonly marker: (record: RecordedApproval) => string;
      readonly lines: readonly string[];
    };

/**
 * Posts the answer to an approval command once the head has been judged with it. An approval
 * holds only for the commit judged: its reply carries the hidden record later evaluations of
 * the same head find (a new push has another head and is judged again). A replayed job finds
 * its own record and does not post it twice.
 */
export async function postApprovalReply(
  client: GitHubClient,
  target: StickyCommentTarget & { readonly headSha: string; readonly approval: PendingApproval },
  recorded: readonly RecordedApproval[],
  reply: ApprovalReply,
): Promise<void> {
  let body: string;
  if ('nothing' in reply) {
    body = reply.nothing;
  } else {
    const record: RecordedApproval = { headSha: target.headSha, ...target.approval };
    if (recorded.some((known) => sameApproval(known, record))) return;
    body = [reply.marker(record), ...reply.lines].join('\n');
  }
  await client.rest.issues.createComment({
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    body,
  });
}

/** The first line of an approval's reply: what was approved, for which commit, by whom, why. */
export function approvedLine(what: string, headSha: string, approval: PendingApproval): string {
  return `${what} approved for ${headSha.slice(0, 12)} by ${escapeMarkdown(`@${approval.approverLogin}`)}: ${escapeMarkdown(approval.reason)}`;
}

/** Answers `/aureus approve-budget`: only an overrun is approved. */
export function budgetApprovalReply(
  report: Report,
  headSha: string,
  approval: PendingApproval,
): ApprovalReply {
  if (report.budget.remaining >= 0)
    return {
      nothing: `Nothing to approve: ${headSha.slice(0, 12)} is within its budget (${report.cost.total} of ${report.budget.block} points).`,
    };
  return {
    marker: approvalMarker,
    lines: [
      approvedLine('Budget overrun', headSha, approval),
      '',
      `The change costs ${report.cost.total} points, ${-report.budget.remaining} over the budget of ${report.budget.block}. The approval holds for this commit only: a new push is judged again.`,
    ],
  };
}

function sameApproval(a: RecordedApproval, b: RecordedApproval): boolean {
  return a.headSha === b.headSha && a.approverId === b.approverId && a.reason === b.reason;
}
