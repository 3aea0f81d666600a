import { policyApprovalMarker } from '../github/budget-approval-marker.js';
import type { Report } from '../model/report.js';
import { escapeMarkdown } from '../report/markdown-escape.js';
import { type ApprovalReply, approvedLine, type PendingApproval } from './budget-approval.js';

/**
 * Answers `/aureus approve-policy`, as `budgetApprovalReply` does for a budget: only a
 * loosening of the policy is approved, each loosened setting listed.
 */
export function policyApprovalReply(
  report: Report,
  headSha: string,
  approval: PendingApproval,
): ApprovalReply {
  const loosened = report.policy.loosens;
  if (loosened.length === 0)
    return { nothing: `Nothing to approve: ${headSha.slice(0, 12)} does not loosen the policy.` };
  return {
    marker: policyApprovalMarker,
    lines: [
      approvedLine('Policy loosening', headSha, approval),
      '',
      ...loosened.map((setting) => `- ${escapeMarkdown(setting)}`),
      '',
      'The approval holds for this commit only: a new push needs a new approval.',
    ],
  };
}
