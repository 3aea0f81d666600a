import { builderRunComment, updateBuilderRunComment } from '../../github/builder-run-comment.js';
import {
  ALREADY_RUNNING_REPLY,
  builderCapRefusal,
  builderSnapshot,
  cents,
  dispatchBuilderWorkflow,
  isOutdatedWorkflow,
  MISSING_WORKFLOW_REPLY,
  NO_RUN_TO_CANCEL_REPLY,
  OUTDATED_WORKFLOW_REPLY,
  type Requester,
  type BuilderTrigger as RunTrigger,
  tooManyCommentsReply,
  triggerRunId,
} from '../../github/builder-trigger.js';
import { labelTriggerOf } from '../../github/builder-triggers.js';
import { BUILDER_NOT_ENABLED_REPLY } from '../../github/command-replies.js';
import type { GitHubClient } from '../../github/github-client.js';
import { listIssueComments, peoplesComments } from '../../github/issue-comments.js';
import type { IssuePayload } from '../../github/issue-event-payloads.js';
import { statusOf } from '../../github/request-error.js';
import { appendToAppLedger, appLedgerPath } from '../../memory/app-ledger.js';
import { readJournal } from '../../memory/journal.js';
import type { Policy } from '../../model/policy.js';
import type { AppServices } from '../evaluation-request.js';
import type { AppRepository } from '../judged-change.js';
import { type BuilderRun, isActive, readBuilderRun, writeBuilderRun } from './builder-runs.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A trigger whose requester's live permission has been checked already. */
export interface BuilderTrigger {
  readonly client: GitHubClient;
  readonly services: AppServices;
  readonly deliveryId: string;
  readonly via: 'comment' | 'label';
  readonly requester: Requester;
  readonly repository: AppRepository;
  readonly defaultBranch: string;
  readonly issue: IssuePayload;
  /** The `/aureus implement` comment's id: the snapshot's comments are those before it. */
  readonly triggerCommentId?: number | undefined;
  /** Visible text after `/aureus implement`, given to the builder as the requester's comment. */
  readonly instructions: string;
  /** `--budget $N`: the requester's cap on the run's model spend, never above the policy's. */
  readonly maxUsd?: number | undefined;
  /** `--budget <n>pt`: the requester's cap on the change's points, never above the policy's. */
  readonly maxPoints?: number | undefined;
  readonly policy: Policy;
  readonly now: () => number;
}

export type BuilderDecision = 'accepted' | 'refused';

/**
 * Starts the builder on an issue, or says why not: builder disabled, a run already active,
 * the requester's daily cap reached, the workflow missing. Every decision is one App ledger
 * entry, keyed by the delivery, so a redelivered webhook adds none and dispatches nothing twice.
 */
export async function startBuilder(trigger: BuilderTrigger): Promise<BuilderDecision> {
  const { client, services, repository, issue, policy } = trigger;
  const target = { owner: repository.owner, repo: repository.repo, issueNumber: issue.number };
  const reply = (body: string) =>
    client.rest.issues.createComment({
      owner: repository.owner,
      repo: repository.repo,
      issue_number: issue.number,
      body,
    });
  const refuse = async (reason: string, body: string) => {
    await reply(body);
    await recordBuilderDecision(trigger, 'refused', reason);
    return 'refused' as const;
  };
  const current = await readBuilderRun(services.dataDir, repository.id, issue.number);
  if (current?.deliveryId === trigger.deliveryId) return 'accepted';
  if (!policy.integrations.app.builder)
    return refuse('builder disabled', BUILDER_NOT_ENABLED_REPLY);
  if (isActive(current)) return refuse('a run is already active', ALREADY_RUNNING_REPLY);
  const runCap = policy.cost_thresholds.max_usd_per_run;
  const accepted = await acceptedToday(trigger);
  const refusal = builderCapRefusal(policy, trigger, {
    requesterRuns: accepted.filter((record) => record.actorId === trigger.requester.id).length,
    committedUsd: accepted.reduce((sum, record) => sum + capOf(record, runCap), 0),
  });
  if (refusal !== undefined) return refuse(refusal.reason, refusal.reply);
  const runUsd = trigger.maxUsd ?? runCap;

  const listed = await listIssueComments(
    client,
    { owner: repository.owner, repo: repository.repo, issue_number: issue.number },
    trigger.triggerCommentId,
  );
  if (!listed.complete) return refuse('too many comments', tooManyCommentsReply());
  const snapshot = builderSnapshot(
    issue,
    trigger.requester,
    trigger.instructions,
    peoplesComments(listed.comments),
  );
  // The trigger the dispatch names, which the builder step reads again from GitHub to prove who
  // asked (action/dispatch-trigger.ts): the App's bot is trusted for nothing a trigger does not
  // show. The run's id is derived from it, so one trigger starts one run.
  const named = await runTriggerOf(trigger, policy.integrations.app.builder_label);
  if (named === undefined) return refuse('no label event', NO_LABEL_EVENT_REPLY);
  const runId = triggerRunId(repository, issue.number, named);
  let run: BuilderRun = {
    runId,
    deliveryId: trigger.deliveryId,
    issue: issue.number,
    requesterId: trigger.requester.id,
    snapshotHash: snapshot.hash,
    status: 'queued',
    ...(trigger.maxUsd === undefined ? {} : { maxUsd: trigger.maxUsd }),
    ...(trigger.maxPoints === undefined ? {} : { maxPoints: trigger.maxPoints }),
  };
  // Claimed before the dispatch: a crash after it leaves the issue busy rather than dispatched twice.
  await writeBuilderRun(services.dataDir, repository.id, run);
  let workflowRunId: number | undefined;
  try {
    workflowRunId = await dispatchBuilderWorkflow(client, repository, {
      defaultBranch: trigger.defaultBranch,
      issue: issue.number,
      snapshot: snapshot.hash,
      requester: trigger.requester.id,
      runId,
      maxUsd: trigger.maxUsd,
      maxPoints: trigger.maxPoints,
      trigger: named,
    });
  } catch (error) {
    await writeBuilderRun(services.dataDir, repository.id, { ...run, status: 'failed' });
    if (statusOf(error) === 404) return refuse('builder workflow missing', MISSING_WORKFLOW_REPLY);
    if (isOutdatedWorkflow(error))
      return refuse('builder workflow outdated', OUTDATED_WORKFLOW_REPLY);
    throw error;
  }
  const { data: comment } = await client.rest.issues.createComment({
    owner: repository.owner,
    repo: repository.repo,
    issue_number: issue.number,
    body: builderRunComment(runId, 'queued'),
  });
  run = {
    ...run,
    commentId: comment.id,
    ...(workflowRunId === undefined ? {} : { workflowRunId }),
  };
  await writeBuilderRun(services.dataDir, repository.id, run);
  await recordBuilderDecision(trigger, 'accepted', 'dispatched', {
    run: runId,
    snapshot: snapshot.hash,
    maxUsd: String(runUsd),
    ...(trigger.maxPoints === undefined ? {} : { maxPoints: String(trigger.maxPoints) }),
    removed: snapshot.removed.map((removal) => `${removal.kind}:${removal.count}`).join(','),
    comments: `kept:${snapshot.comments.kept},dropped:${snapshot.comments.dropped},bots:${listed.comments.filter((comment) => comment.bot).length}`,
  });
  services.log.info({ run: runId, issue: issue.number, ...target }, 'builder dispatched');
  return 'accepted';
}

export const NO_LABEL_EVENT_REPLY =
  'GitHub lists no event of you adding the builder label to this issue, which the builder run would answer: add the label again, or comment `/aureus implement`.';

/** The comment that asked, or the newest event of the requester adding the builder label. */
async function runTriggerOf(
  trigger: BuilderTrigger,
  label: string,
): Promise<RunTrigger | undefined> {
  if (trigger.via === 'comment' && trigger.triggerCommentId !== undefined)
    return { kind: 'comment', id: trigger.triggerCommentId };
  const { repository, issue } = trigger;
  return labelTriggerOf(
    trigger.client,
    { owner: repository.owner, repo: repository.repo, issue_number: issue.number },
    label,
    trigger.requester.id,
  );
}

/** `/aureus cancel` by a writer: marks the run cancelled, then cancels the dispatched workflow run. */
export async function cancelBuilder(
  trigger: Omit<BuilderTrigger, 'policy' | 'instructions' | 'defaultBranch'>,
): Promise<BuilderDecision> {
  const { client, services, repository, issue } = trigger;
  const run = await readBuilderRun(services.dataDir, repository.id, issue.number);
  if (!isActive(run)) {
    await client.rest.issues.createComment({
      owner: repository.owner,
      repo: repository.repo,
      issue_number: issue.number,
      body: NO_RUN_TO_CANCEL_REPLY,
    });
    return 'refused';
  }
  // The record first, the workflow run second: the run's jobs read the record (publish refuses a
  // cancelled run), so a cancellation of the workflow run that fails, or lands late, still
  // stops it; and a failed cancel leaves the run marked, never half-cancelled.
  await writeBuilderRun(services.dataDir, repository.id, { ...run, status: 'cancelled' });
  if (run.commentId !== undefined)
    await updateBuilderRunComment(
      client,
      { owner: repository.owner, repo: repository.repo },
      run.commentId,
      run.runId,
      'cancelled',
      `by @${trigger.requester.login}`,
    );
  await appendToAppLedger(services.dataDir, repository.id, `builder:${trigger.deliveryId}`, {
    kind: 'builder-cancel',
    actor: trigger.requester.login,
    actorId: trigger.requester.id,
    issue: issue.number,
    run: run.runId,
    at: new Date(trigger.now()).toISOString(),
  });
  if (run.workflowRunId !== undefined) {
    try {
      await client.request('POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel', {
        owner: repository.owner,
        repo: repository.repo,
        run_id: run.workflowRunId,
      });
    } catch (error) {
      // 409: the run has already finished. Any other failure is raised (the delivery's log
      // says why) with the run already marked cancelled, which its publish job obeys.
      if (statusOf(error) !== 409) throw error;
    }
  }
  return 'accepted';
}

/** One App ledger entry per builder trigger, accepted or refused. */
export async function recordBuilderDecision(
  trigger: Pick<
    BuilderTrigger,
    'services' | 'repository' | 'deliveryId' | 'requester' | 'issue' | 'via' | 'now'
  >,
  decision: BuilderDecision,
  reason: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<void> {
  await appendToAppLedger(
    trigger.services.dataDir,
    trigger.repository.id,
    `builder:${trigger.deliveryId}`,
    {
      kind: 'builder-trigger',
      via: trigger.via,
      actor: trigger.requester.login,
      actorId: trigger.requester.id,
      issue: trigger.issue.number,
      decision,
      reason,
      at: new Date(trigger.now()).toISOString(),
      ...extra,
    },
  );
}

/**
 * What the repository's runs dispatched in the last 24 hours may spend: each counts its whole
 * cap, since the App hears of no run's bill. A continuation counts again with its new cap.
 */
export async function committedToday(
  trigger: Pick<BuilderTrigger, 'services' | 'repository' | 'now' | 'policy'>,
): Promise<number> {
  const runCap = trigger.policy.cost_thresholds.max_usd_per_run;
  return cents(
    (await acceptedToday(trigger)).reduce((sum, record) => sum + capOf(record, runCap), 0),
  );
}

/** The repository's accepted builder triggers of the last 24 hours. */
async function acceptedToday(
  trigger: Pick<BuilderTrigger, 'services' | 'repository' | 'now'>,
): Promise<Readonly<Record<string, unknown>>[]> {
  const since = trigger.now() - DAY_MS;
  const { entries } = await readJournal(
    appLedgerPath(trigger.services.dataDir, trigger.repository.id),
  );
  return entries
    .map(({ record }) => record)
    .filter(
      (record) =>
        record.kind === 'builder-trigger' &&
        record.decision === 'accepted' &&
        typeof record.at === 'string' &&
        Date.parse(record.at) > since,
    );
}

/** A dispatched run's cap in dollars; an entry without one counts the policy's run cap. */
function capOf(record: Readonly<Record<string, unknown>>, runCap: number): number {
  const recorded = typeof record.maxUsd === 'string' ? Number(record.maxUsd) : Number.NaN;
  return Number.isFinite(recorded) ? recorded : runCap;
}
