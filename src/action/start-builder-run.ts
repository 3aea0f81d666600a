import { builderRunComment, readBuilderRunComment } from '../github/builder-run-comment.js';
import {
  ALREADY_RUNNING_REPLY,
  BUILDER_WORKFLOW,
  type BuilderTrigger,
  builderCapRefusal,
  builderSnapshot,
  type DayOfRuns,
  dispatchBuilderWorkflow,
  isOutdatedWorkflow,
  MISSING_WORKFLOW_REPLY,
  NO_RUN_TO_CANCEL_REPLY,
  OUTDATED_WORKFLOW_REPLY,
  type RequestedBudget,
  type Requester,
  tooManyCommentsReply,
  triggerRunId,
} from '../github/builder-trigger.js';
import { labelTriggerOf } from '../github/builder-triggers.js';
import { BUILDER_NOT_ENABLED_REPLY } from '../github/command-replies.js';
import { listIssueComments, peoplesComments } from '../github/issue-comments.js';
import type { IssuePayload } from '../github/issue-event-payloads.js';
import { statusOf } from '../github/request-error.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { builderRunsOfDay } from './builder-day-runs.js';
import { type CommandContext, replyOn } from './command-context.js';
import { logUntrusted } from './untrusted-log.js';

export interface BuilderRequest {
  readonly context: CommandContext;
  readonly issue: IssuePayload;
  /** Whoever commented or added the label, their live permission checked already. */
  readonly requester: Requester;
  readonly via: 'comment' | 'label';
  /** The `/aureus implement` comment's id: the snapshot quotes the comments before it. */
  readonly triggerCommentId?: number | undefined;
}

export const NOT_A_BOT_TOKEN_REPLY =
  "The builder was not started: this workflow's github-token acts as a person, and the builder's publish job only accepts runs dispatched by a bot account (the job's GITHUB_TOKEN, or a GitHub App's token). Leave github-token at its default.";

/**
 * The Action's answer to `/aureus implement` and the builder label, with the App's checks and
 * effects (start-builder.ts in the App): the builder enabled in the default branch's policy,
 * the day's caps, one run per issue, then the sanitised snapshot, the tracking comment and the
 * dispatch of aureus-builder.yml with the App's inputs.
 *
 * The Action keeps no state between jobs, so GitHub's own records stand in for the App's:
 * - the tracking comment is posted before the dispatch, and the account GitHub names as its
 *   author is the one the token acts as, the one the dispatch will name as its sender, which the
 *   publish job requires to be a bot and trusts as the author of the run's record;
 * - a run is active while its tracking comment by that account says queued; of two triggers at
 *   once, the one with the earlier comment starts and the other says a run is active;
 * - the day's runs are the builder workflow's runs of the last 24 hours (the `actions` API):
 *   each counts its whole `max_usd_per_run`, and since all are dispatched by the same token,
 *   none can be told apart by requester, so each counts towards every requester's daily cap.
 */
export async function startBuilderRun(
  request: BuilderRequest,
  instructions: string,
  budget: RequestedBudget,
): Promise<void> {
  const { context, issue, requester } = request;
  const { client, repository } = context;
  const policy = await context.policy();
  if (!policy.integrations.app.builder)
    return replyOn(context, issue.number, BUILDER_NOT_ENABLED_REPLY);
  const day = await dayOfRuns(context, policy);
  const refusal = builderCapRefusal(policy, budget, day);
  if (refusal !== undefined)
    return replyOn(
      context,
      issue.number,
      refusal.reason === 'daily cap reached'
        ? actionDailyCapReply(day.requesterRuns, policy.cost_thresholds.max_runs_per_actor_per_day)
        : refusal.reply,
    );
  const listed = await listIssueComments(
    client,
    { ...repository, issue_number: issue.number },
    request.triggerCommentId,
  );
  if (!listed.complete) return replyOn(context, issue.number, tooManyCommentsReply());
  const trigger = await triggerOf(request, policy.integrations.app.builder_label);
  // One trigger, one run: the run's id is derived from it, so a re-run of this job, or a writer
  // dispatching the workflow again with the same trigger, names the same run, which the builder
  // step refuses once it has left a branch, a kept ref or a pull request (dispatch-trigger.ts).
  const runId = triggerRunId(repository, issue.number, trigger);
  const snapshot = builderSnapshot(
    issue,
    requester,
    instructions,
    peoplesComments(listed.comments),
  );
  const { data: comment } = await client.rest.issues.createComment({
    ...repository,
    issue_number: issue.number,
    body: builderRunComment(runId, 'queued'),
  });
  const edit = (body: string) =>
    client.rest.issues.updateComment({ ...repository, comment_id: comment.id, body });
  const self = comment.user;
  if (self === null || self.type !== 'Bot') {
    await edit(NOT_A_BOT_TOKEN_REPLY);
    return;
  }
  if (await earlierActiveRun(request, self.id, comment.id)) {
    await edit(ALREADY_RUNNING_REPLY);
    return;
  }
  let workflowRunId: number | undefined;
  try {
    workflowRunId = await dispatchBuilderWorkflow(client, repository, {
      defaultBranch: context.defaultBranch,
      issue: issue.number,
      snapshot: snapshot.hash,
      requester: requester.id,
      runId,
      maxUsd: budget.maxUsd,
      maxPoints: budget.maxPoints,
      trigger,
    });
  } catch (error) {
    const status = statusOf(error);
    if (status === 404) {
      await edit(MISSING_WORKFLOW_REPLY);
      return;
    }
    if (isOutdatedWorkflow(error)) {
      await edit(OUTDATED_WORKFLOW_REPLY);
      return;
    }
    await edit(
      builderRunComment(runId, 'failed', 'the dispatch failed; the workflow log says why.'),
    );
    if (status === 403)
      throw new AureusError(
        `GitHub refused to dispatch ${BUILDER_WORKFLOW} (403).`,
        'grant the job actions: write, which starting the builder workflow needs.',
      );
    throw error;
  }
  // The workflow run is named in the record, so `/aureus cancel` can stop it.
  if (workflowRunId !== undefined)
    await edit(builderRunComment(runId, 'queued', `workflow run ${workflowRunId}`));
  logUntrusted(
    (text) => process.stdout.write(text),
    `AUREUS: builder run ${runId} dispatched for issue #${issue.number} (${request.via} by ${requester.login}, snapshot ${snapshot.hash}; removed from the issue text: ${snapshot.removed.map((removal) => `${removal.kind}:${removal.count}`).join(',') || 'nothing'}).`,
  );
}

/**
 * The trigger the dispatch names, for the builder step to read again and prove the requester:
 * the command's comment, or the newest event of the requester adding the builder label.
 */
async function triggerOf(request: BuilderRequest, label: string): Promise<BuilderTrigger> {
  if (request.via === 'comment' && request.triggerCommentId !== undefined)
    return { kind: 'comment', id: request.triggerCommentId };
  const { client, repository } = request.context;
  const event = await labelTriggerOf(
    client,
    { ...repository, issue_number: request.issue.number },
    label,
    request.requester.id,
  );
  if (event === undefined)
    throw new AureusError(
      `issue #${request.issue.number} lists no event of ${request.requester.login} adding the label ${label}, which the builder run would answer.`,
      'add the label again, or comment /aureus implement on the issue.',
    );
  return event;
}

/**
 * `/aureus cancel`: every queued run of the issue recorded by the token's account is marked
 * cancelled (which the publish job reads before and after it pushes), then its workflow run is
 * cancelled. The account is learnt from the acknowledgement on the command: GitHub names who
 * reacted.
 */
export async function cancelBuilderRun(request: BuilderRequest, commentId: number): Promise<void> {
  const { context, issue, requester } = request;
  const { client, repository } = context;
  const { data: reaction } = await client.rest.reactions.createForIssueComment({
    ...repository,
    comment_id: commentId,
    content: '+1',
  });
  const self = reaction.user;
  const active = self === null ? [] : await activeRuns(request, self.id);
  if (active.length === 0) return replyOn(context, issue.number, NO_RUN_TO_CANCEL_REPLY);
  for (const run of active) {
    await client.rest.issues.updateComment({
      ...repository,
      comment_id: run.commentId,
      body: builderRunComment(run.runId, 'cancelled', `by @${requester.login}`),
    });
    if (run.workflowRunId === undefined) continue;
    try {
      await client.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', {
        ...repository,
        run_id: run.workflowRunId,
      });
    } catch (error) {
      // 409: the run has already finished; it is marked cancelled all the same.
      if (statusOf(error) !== 409) throw error;
    }
  }
}

interface ActiveRun {
  readonly commentId: number;
  readonly runId: string;
  readonly workflowRunId?: number | undefined;
}

/** The issue's queued runs, by their tracking comments of the token's account. */
async function activeRuns(request: BuilderRequest, selfId: number): Promise<ActiveRun[]> {
  const { client, repository } = request.context;
  const comments = await client.paginate(client.rest.issues.listComments, {
    ...repository,
    issue_number: request.issue.number,
    per_page: 100,
  });
  const runs: ActiveRun[] = [];
  for (const comment of comments) {
    if (comment.user?.id !== selfId || comment.user.type !== 'Bot') continue;
    const run = readBuilderRunComment(comment.body ?? '');
    if (run?.active === true)
      runs.push({ commentId: comment.id, runId: run.runId, workflowRunId: run.workflowRunId });
  }
  return runs;
}

async function earlierActiveRun(
  request: BuilderRequest,
  selfId: number,
  ownCommentId: number,
): Promise<boolean> {
  return (await activeRuns(request, selfId)).some((run) => run.commentId < ownCommentId);
}

/**
 * The builder workflow's dispatched runs of the last 24 hours (builder-day-runs.ts, which the
 * builder step reads again before any model runs), each at its whole max_usd_per_run.
 */
async function dayOfRuns(context: CommandContext, policy: Policy): Promise<DayOfRuns> {
  let runs: number;
  try {
    runs = (await builderRunsOfDay(context.client, context.repository, { now: Date.now() })).length;
  } catch (error) {
    // No workflow yet: no runs; the dispatch says what is missing.
    if (statusOf(error) === 404) return { requesterRuns: 0, committedUsd: 0 };
    if (statusOf(error) === 403)
      throw new AureusError(
        `GitHub refused to list the runs of ${BUILDER_WORKFLOW} (403), which the builder's daily caps are counted from.`,
        'grant the job actions: write (it covers reading the runs and starting the workflow).',
      );
    throw error;
  }
  return { requesterRuns: runs, committedUsd: runs * policy.cost_thresholds.max_usd_per_run };
}

function actionDailyCapReply(runs: number, cap: number): string {
  return `This repository's builder workflow has run ${runs} time${runs === 1 ? '' : 's'} in the last 24 hours. The Action dispatches every run with the same token, so it cannot tell whose they were, and counts each towards \`cost_thresholds.max_runs_per_actor_per_day\` (${cap}) for everyone: try again when the oldest of them is a day old, or use the AUREUS App, which counts runs per requester.`;
}
