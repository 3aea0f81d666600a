import type { RecordedApproval } from '../github/budget-approval-marker.js';
import type { GitHubClient } from '../github/github-client.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import { checkCommitRange } from '../workspace/check-commit-range.js';
import { type CheckedChange, checkPullRequest } from '../workspace/check-pull-request.js';
import type { Override } from '../workspace/record-check.js';
import { approvalFor } from './budget-approval.js';
import type { AppServices, EvaluationRequest } from './evaluation-request.js';

export interface Judgement extends CheckedChange {
  /** The approval the verdict used, for the ledger; null when none applied. */
  readonly override: Override | null;
}

/**
 * Reads and judges the change over the API with the core every surface shares. A budget
 * approval applies only to the head it was given for: the pending one of an
 * `/aureus approve-budget`, else the latest the App recorded for that head.
 */
export async function judgeRequest(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
  recorded: readonly RecordedApproval[],
): Promise<Judgement> {
  const approval = approvalFor(request.headSha, request.approval, recorded);
  const options = {
    cacheDir: appCacheFolder(services.dataDir),
    toolVersion: services.toolVersion,
    policyGate: { kind: 'warn' as const },
    ...(approval === undefined
      ? {}
      : {
          budgetApproval: {
            headSha: request.headSha,
            by: `@${approval.approverLogin}`,
            reason: approval.reason,
          },
        }),
  };
  const { repository, judged } = request;
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const checked =
    judged.kind === 'pull'
      ? await checkPullRequest(client, { ...coordinates, number: judged.number }, options)
      : await checkCommitRange(
          client,
          { ...coordinates, baseSha: judged.baseSha, headSha: request.headSha },
          options,
        );
  const applied =
    approval !== undefined &&
    checked.report.change.headSha === request.headSha &&
    checked.report.budget.remaining < 0;
  return {
    ...checked,
    override: applied ? { by: approval.approverLogin, reason: approval.reason } : null,
  };
}
