import * as core from '@actions/core';
import type { PolicyGateOption } from '../check/policy-gate.js';
import type { GitHubClient } from '../github/github-client.js';
import { isPermissionDenied } from '../github/request-error.js';
import { reviewApproval } from '../github/review-approval.js';
import type { WorkflowEvent } from '../github/workflow-event.js';

const APPROVE_POLICY_HOW =
  'a maintainer or admin approves this commit in a review of the pull request (the workflow needs the pull_request_review event).';

/**
 * On a pull request a loosened policy blocks until a maintainer or admin approves its head in
 * a review. A push, a merge queue's commit or a dispatch comes after that gate (or around it,
 * where no pull request is required): the loosening is said there, not blocked.
 */
export function actionPolicyGate(
  event: WorkflowEvent,
  client: GitHubClient | null,
): PolicyGateOption {
  const target = event.target;
  if (target.kind !== 'pull-request') return { kind: 'warn' };
  // Without a token no review can be read: the loosening blocks, with the way out in the reason.
  if (client === null) return { kind: 'approval', how: APPROVE_POLICY_HOW };
  return {
    kind: 'approval',
    how: APPROVE_POLICY_HOW,
    findApproval: async (headSha) => {
      try {
        return await reviewApproval(client, event.repository, target.number, headSha);
      } catch (error) {
        if (!isPermissionDenied(error)) throw error;
        // Unread reviews approve nothing: the loosening still blocks, and the fix is said.
        core.warning(
          'AUREUS could not read the pull request reviews that approve a policy loosening: the token lacks the permission. To resolve, grant `pull-requests: read` to this job.',
        );
        return undefined;
      }
    },
  };
}
