import { checkCommitRange } from '../check/check-commit-range.js';
import { type CheckedChange, checkPullRequest } from '../check/check-pull-request.js';
import type { PolicyGateOption } from '../check/policy-gate.js';
import type { Override } from '../check/record-check.js';
import type { RecordedApproval } from '../github/budget-approval-marker.js';
import { independentApprovers, withIndependentApproval } from '../github/builder-pull-approval.js';
import type { GitHubClient } from '../github/github-client.js';
import { builderApprovalRequirement } from '../github/last-push-approval.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import { approvalFor, type PendingApproval } from './budget-approval.js';
import { builderPullOf } from './builder/builder-pull.js';
import type { AppServices, EvaluationRequest } from './evaluation-request.js';

export interface Judgement extends CheckedChange {
  /** The approval the verdict used, for the ledger; null when none applied. */
  readonly override: Override | null;
}

/**
 * Reads and judges the change over the API with the core every surface shares. A budget or
 * policy approval applies only to the head it was given for: the pending one of an
 * `/aureus approve-budget` or `approve-policy`, else the latest the App recorded for that head.
 */
export async function judgeRequest(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
  recorded: {
    readonly budget: readonly RecordedApproval[];
    readonly policy: readonly RecordedApproval[];
  },
): Promise<Judgement> {
  const approval = approvalFor(request.headSha, request.approval, recorded.budget);
  const policyApproval = approvalFor(request.headSha, request.policyApproval, recorded.policy);
  const options = {
    cacheDir: appCacheFolder(services.dataDir),
    toolVersion: services.toolVersion,
    policyGate: policyGateOf(request, policyApproval),
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
  const judgedChecked =
    judged.kind === 'pull'
      ? await builderGate(client, services, request, judged.number, checked)
      : checked;
  const applied =
    approval !== undefined &&
    checked.report.change.headSha === request.headSha &&
    checked.report.budget.remaining < 0;
  return {
    ...judgedChecked,
    override: applied ? { by: approval.approverLogin, reason: approval.reason } : null,
  };
}

/**
 * A pull request of the builder passes only once a person independent of its run approved its
 * head (THREATS row 12): the requester cannot be the only human between the agent and a merge.
 */
async function builderGate(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
  number: number,
  checked: CheckedChange,
): Promise<CheckedChange> {
  const { repository } = request;
  const { data: pull } = await client.rest.pulls.get({
    owner: repository.owner,
    repo: repository.repo,
    pull_number: number,
  });
  const builder = await builderPullOf(services.dataDir, repository, pull);
  if (builder === undefined) return checked;
  const required = await builderApprovalRequirement(client, repository, pull.base.ref);
  const approvers = await independentApprovers(
    client,
    repository,
    pull,
    builder,
    required.approvals,
  );
  return {
    ...checked,
    report: withIndependentApproval(checked.report, builder, approvers, required),
  };
}

const APPROVE_POLICY_HOW =
  'a maintainer or admin comments `/aureus approve-policy <reason>` on the pull request, for this commit.';

/**
 * On a pull request a loosened policy blocks until approved for its head. A merge queue's
 * commit is judged after its pull request passed that gate (the queue admits only pull requests
 * whose required checks pass), so there the loosening is said, not blocked again.
 */
function policyGateOf(
  request: EvaluationRequest,
  approval: PendingApproval | undefined,
): PolicyGateOption {
  if (request.judged.kind !== 'pull') return { kind: 'warn' };
  return {
    kind: 'approval',
    how: APPROVE_POLICY_HOW,
    findApproval: async (headSha) =>
      approval === undefined || headSha !== request.headSha
        ? undefined
        : {
            by: `@${approval.approverLogin}`,
            accountId: approval.approverId,
            reason: approval.reason,
          },
  };
}
