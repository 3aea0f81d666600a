import {
  budgetAbovePolicyReply,
  dailySpendReply,
  dispatchBuilderWorkflow,
  isOutdatedWorkflow,
  MISSING_WORKFLOW_REPLY,
  OUTDATED_WORKFLOW_REPLY,
  pointsAbovePolicyReply,
} from '../../github/builder-trigger.js';
import { BUILDER_NOT_ENABLED_REPLY } from '../../github/command-replies.js';
import type { BudgetAmount } from '../../github/parse-command.js';
import { statusOf } from '../../github/request-error.js';
import { readBuilderRun, writeBuilderRun } from './builder-runs.js';
import {
  type BuilderDecision,
  type BuilderTrigger,
  committedToday,
  recordBuilderDecision,
} from './start-builder.js';

export const APPROVE_RUN_BUDGET_USAGE_REPLY =
  'On an issue, `/aureus approve-budget` takes the budget its stopped builder run may go on with: `/aureus approve-budget $N` (dollars for the model) or `/aureus approve-budget <n>pt` (complexity points for the change).';

export const NO_STOPPED_RUN_REPLY =
  'No builder run of this issue is stopped waiting for a larger budget (its tracking comment would say so).';

export const UNKNOWN_WORKFLOW_RUN_REPLY =
  'GitHub did not say which workflow run this builder run stopped in, so it cannot go on from its kept work: start a new run with `/aureus implement --budget $N` (or `<n>pt`).';

export const OWN_RUN_BUDGET_REPLY =
  'This builder run is one you requested: a larger budget for it must come from another person with write access.';

export function continuedReply(runId: string, amount: BudgetAmount, login: string): string {
  const given = 'points' in amount ? `${amount.points} points` : `$${amount.usd}`;
  return `The builder run \`${runId}\` goes on with a budget of ${given}, approved by @${login}.`;
}

/** A writer's `/aureus approve-budget <amount>` on an issue, their live permission checked. */
export interface ContinueTrigger extends Omit<BuilderTrigger, 'instructions'> {
  readonly amount: BudgetAmount | undefined;
}

/**
 * Lets a run that stopped for want of budget go on: the same run (its id, its snapshot, its
 * requester) dispatched again with the approved cap, within the policy's caps, and with the id
 * of the workflow run it stopped in (`resume_from`, as GitHub answered the App's dispatch of it),
 * whose artifact the builder goes on from (action/stopped-run-handoff.ts), and with the approval
 * comment as its trigger, which the builder step reads again. The requester may not raise their
 * own run's budget, for the reason they cannot approve its pull request. One continuation per
 * stopped workflow run. Every decision is one App ledger entry, keyed by the delivery.
 */
export async function continueBuilder(trigger: ContinueTrigger): Promise<BuilderDecision> {
  const { client, services, repository, issue, policy, amount } = trigger;
  const where = { owner: repository.owner, repo: repository.repo };
  const refuse = async (reason: string, body: string) => {
    await client.rest.issues.createComment({ ...where, issue_number: issue.number, body });
    await recordBuilderDecision(trigger, 'refused', reason);
    return 'refused' as const;
  };
  const run = await readBuilderRun(services.dataDir, repository.id, issue.number);
  if (run?.deliveryId === trigger.deliveryId) return 'accepted';
  if (!policy.integrations.app.builder)
    return refuse('builder disabled', BUILDER_NOT_ENABLED_REPLY);
  if (amount === undefined) return refuse('no budget given', APPROVE_RUN_BUDGET_USAGE_REPLY);
  if (run === undefined || run.commentId === undefined || run.status === 'cancelled')
    return refuse('no stopped run', NO_STOPPED_RUN_REPLY);
  if (trigger.requester.id === run.requesterId)
    return refuse('the requester may not raise their own budget', OWN_RUN_BUDGET_REPLY);
  // The continuation goes on from the stopped workflow run's artifact, which the App names by
  // the id GitHub gave it at dispatch: without it there is nothing trustworthy to go on from.
  if (run.workflowRunId === undefined)
    return refuse('stopped workflow run unknown', UNKNOWN_WORKFLOW_RUN_REPLY);
  // Whether the run stopped is decided from the App's record (the workflow run it dispatched)
  // and GitHub's record of that run, never from the tracking comment, whose text any writer can
  // edit: the run has ended and left no branch (a run that finished pushed one). That it
  // stopped for want of budget, with its work kept, is its artifact's to prove, which the
  // builder step reads before any model runs (action/stopped-run-handoff.ts).
  const ended = await workflowRunEnded(trigger, run.workflowRunId);
  if (!ended)
    return run.continuedFrom === undefined
      ? refuse('no stopped run', NO_STOPPED_RUN_REPLY)
      : refuse('already going on', NO_STOPPED_RUN_REPLY);
  if (await runBranchExists(trigger, run.runId))
    return refuse('no stopped run', NO_STOPPED_RUN_REPLY);
  if (trigger.triggerCommentId === undefined)
    return refuse('no approval comment', APPROVE_RUN_BUDGET_USAGE_REPLY);
  const stop = String(run.workflowRunId);
  if (run.continuedFrom === stop) return refuse('already going on', NO_STOPPED_RUN_REPLY);
  const { max_usd_per_run: usdCap } = policy.cost_thresholds;
  const pointsCap = policy.budgets.change.block;
  if ('usd' in amount && amount.usd > usdCap)
    return refuse('budget above the policy', budgetAbovePolicyReply(amount.usd, usdCap));
  if ('points' in amount && amount.points > pointsCap)
    return refuse('budget above the policy', pointsAbovePolicyReply(amount.points, pointsCap));
  // The continuation may spend its cap again: the day's cap counts it as a run of its own.
  const nextUsd = 'usd' in amount ? amount.usd : (run.maxUsd ?? usdCap);
  const dayCap = policy.cost_thresholds.max_usd_per_day;
  const committed = await committedToday(trigger);
  if (committed + nextUsd > dayCap)
    return refuse('daily spend reached', dailySpendReply(committed, nextUsd, dayCap));
  // The stopped workflow run is this dispatch's input, not the continuation's own: a continuation
  // whose dispatch GitHub answers without an id must not go on from the first stop again.
  const { workflowRunId: stoppedIn, ...earlier } = run;
  const next = {
    ...earlier,
    deliveryId: trigger.deliveryId,
    status: 'queued' as const,
    continuedFrom: stop,
    ...('usd' in amount ? { maxUsd: amount.usd } : { maxPoints: amount.points }),
  };
  // Claimed before the dispatch, as a new run is: a crash after it dispatches nothing twice.
  await writeBuilderRun(services.dataDir, repository.id, next);
  let workflowRunId: number | undefined;
  try {
    workflowRunId = await dispatchBuilderWorkflow(client, repository, {
      defaultBranch: trigger.defaultBranch,
      issue: next.issue,
      snapshot: next.snapshotHash,
      requester: next.requesterId,
      runId: next.runId,
      maxUsd: next.maxUsd,
      maxPoints: next.maxPoints,
      resumeFrom: stoppedIn,
      // The builder step reads the approval again (author, role, not the requester, amount).
      approval: trigger.triggerCommentId,
    });
  } catch (error) {
    await writeBuilderRun(services.dataDir, repository.id, run);
    if (statusOf(error) === 404) return refuse('builder workflow missing', MISSING_WORKFLOW_REPLY);
    if (isOutdatedWorkflow(error))
      return refuse('builder workflow outdated', OUTDATED_WORKFLOW_REPLY);
    throw error;
  }
  await writeBuilderRun(services.dataDir, repository.id, {
    ...next,
    ...(workflowRunId === undefined ? {} : { workflowRunId }),
  });
  await client.rest.issues.createComment({
    ...where,
    issue_number: issue.number,
    body: continuedReply(run.runId, amount, trigger.requester.login),
  });
  await recordBuilderDecision(trigger, 'accepted', 'budget approved', {
    run: run.runId,
    snapshot: run.snapshotHash,
    maxUsd: String(next.maxUsd ?? usdCap),
    ...(next.maxPoints === undefined ? {} : { maxPoints: String(next.maxPoints) }),
  });
  return 'accepted';
}

/** GitHub's record of the App's dispatched workflow run: ended (any conclusion), or not. */
async function workflowRunEnded(trigger: ContinueTrigger, id: number): Promise<boolean> {
  const { client, repository } = trigger;
  try {
    const { data } = await client.rest.actions.getWorkflowRun({
      owner: repository.owner,
      repo: repository.repo,
      run_id: id,
    });
    return data.status === 'completed';
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}

async function runBranchExists(trigger: ContinueTrigger, runId: string): Promise<boolean> {
  const { client, repository, issue } = trigger;
  try {
    await client.rest.git.getRef({
      owner: repository.owner,
      repo: repository.repo,
      ref: `heads/aureus/issue-${issue.number}-${runId}`,
    });
    return true;
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}
