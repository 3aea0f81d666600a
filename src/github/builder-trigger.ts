import { createHash } from 'node:crypto';
import type { Policy } from '../model/policy.js';
import type { GitHubClient } from './github-client.js';
import { MAX_SNAPSHOT_COMMENT_PAGES } from './issue-comments.js';
import type { IssuePayload } from './issue-event-payloads.js';
import { type EarlierComment, type IssueSnapshot, issueSnapshot } from './issue-snapshot.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * What the App and the Action share when a writer starts the builder on an issue: the replies,
 * the caps, the snapshot the requester approves and the `workflow_dispatch` that starts the
 * run. Neither runs the agent itself: the workflow does, on a runner.
 */

/** The workflow both dispatch. */
export const BUILDER_WORKFLOW = 'aureus-builder.yml';

export const ALREADY_RUNNING_REPLY =
  'A builder run is already queued or running on this issue: wait for it, or stop it with `/aureus cancel`.';

export const NO_RUN_TO_CANCEL_REPLY = 'No builder run is queued or running on this issue.';

export const MISSING_WORKFLOW_REPLY = [
  `The builder runs in the workflow \`.github/workflows/${BUILDER_WORKFLOW}\`, which the default branch does not have.`,
  'Add it with `aureus init --builder --action <owner>/<repo>@<commit>` (the README\'s "Builder workflow" shows it), commit it to the default branch, then start the builder again.',
].join(' ');

export const OUTDATED_WORKFLOW_REPLY = [
  `GitHub refused to start \`.github/workflows/${BUILDER_WORKFLOW}\`: it does not declare every input the dispatch sends (a copy made before the \`trigger\` input, or \`budget_points\`).`,
  'Replace it with `aureus init --builder --force --action <owner>/<repo>@<commit>`, commit it to the default branch, then start the builder again.',
].join(' ');

/** GitHub's 422 for a dispatch with inputs the workflow does not declare (an older copy). */
export function isOutdatedWorkflow(error: unknown): boolean {
  return (
    statusOf(error) === 422 && error instanceof Error && error.message.includes('Unexpected inputs')
  );
}

export function dailyCapReply(cap: number): string {
  return `You have started ${cap} builder run${cap === 1 ? '' : 's'} in the last 24 hours, the most \`cost_thresholds.max_runs_per_actor_per_day\` allows: try again when the oldest of them is a day old.`;
}

export function dailySpendReply(committed: number, run: number, cap: number): string {
  return `This repository's builder runs of the last 24 hours may spend up to $${committed}, and this run up to $${run}: together over \`cost_thresholds.max_usd_per_day\` ($${cap}). Start it with a smaller \`--budget\`, or when the oldest of those runs is a day old.`;
}

export function budgetAbovePolicyReply(requested: number, cap: number): string {
  return `The budget you asked for, $${requested}, is above this repository's cap of $${cap} a run (\`cost_thresholds.max_usd_per_run\`): ask for $${cap} or less.`;
}

export function tooManyCommentsReply(): string {
  return `This issue has more than ${MAX_SNAPSHOT_COMMENT_PAGES * 100} comments before the trigger, all of which the builder's snapshot would have to read (its bound): start the builder on a new issue that states the task.`;
}

export function pointsAbovePolicyReply(requested: number, cap: number): string {
  return `The budget you asked for, ${requested} points, is above this repository's cap of ${cap} points a change (\`budgets.change.block\`): ask for ${cap}pt or less.`;
}

/** The requester's `--budget`: dollars, complexity points, or neither. */
export interface RequestedBudget {
  readonly maxUsd?: number | undefined;
  readonly maxPoints?: number | undefined;
}

/** A run's trigger as GitHub records it: the `/aureus implement` comment, or the label event. */
export interface BuilderTrigger {
  readonly kind: 'comment' | 'label';
  readonly id: number;
}

export interface Requester {
  readonly id: number;
  readonly login: string;
}

/** The day's builder runs as a surface knows them: the requester's, and what all may spend. */
export interface DayOfRuns {
  readonly requesterRuns: number;
  /** Dollars the repository's runs of the last 24 hours may spend, each at its cap. */
  readonly committedUsd: number;
}

export type CapRefusal = { readonly reason: string; readonly reply: string };

/**
 * Whether `cost_thresholds` let one more run start: the requester's runs of the day, the run's
 * own cap, and what the repository's runs of the day may spend with it (THREATS row 13). What the
 * runs may spend, not what they did: no surface hears of a run's bill, so each counts its whole
 * cap, and a day's spend can never pass max_usd_per_day.
 */
export function builderCapRefusal(
  policy: Policy,
  budget: RequestedBudget,
  day: DayOfRuns,
): CapRefusal | undefined {
  const { maxUsd, maxPoints } = budget;
  const cap = policy.cost_thresholds.max_runs_per_actor_per_day;
  if (day.requesterRuns >= cap) return { reason: 'daily cap reached', reply: dailyCapReply(cap) };
  const runCap = policy.cost_thresholds.max_usd_per_run;
  if (maxUsd !== undefined && maxUsd > runCap)
    return {
      reason: 'budget above the policy',
      reply: budgetAbovePolicyReply(maxUsd, runCap),
    };
  const block = policy.budgets.change.block;
  if (maxPoints !== undefined && maxPoints > block)
    return { reason: 'budget above the policy', reply: pointsAbovePolicyReply(maxPoints, block) };
  const runUsd = maxUsd ?? runCap;
  const dayCap = policy.cost_thresholds.max_usd_per_day;
  const committed = cents(day.committedUsd);
  if (committed + runUsd > dayCap)
    return {
      reason: 'daily spend reached',
      reply: dailySpendReply(committed, runUsd, dayCap),
    };
  return undefined;
}

export function cents(usd: number): number {
  return Math.round(usd * 100) / 100;
}

/** The run's id: 12 hex digits of a key that names the trigger once (a delivery, a workflow run). */
export function builderRunId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/**
 * The run id of a dispatch that names its trigger (the Action's): derived from the trigger, so
 * one `/aureus implement` comment or one label event starts one run, whoever dispatches it.
 */
export function triggerRunId(
  repository: RepositoryCoordinates,
  issue: number,
  trigger: BuilderTrigger,
): string {
  return builderRunId(
    `trigger:${repository.owner}/${repository.repo}#${issue}:${trigger.kind}-${trigger.id}`,
  );
}

/**
 * The issue text the run is bound to, as the requester saw it when they asked: the instructions
 * after `/aureus implement` come in as their comment (the runner rebuilds the same text).
 */
export function builderSnapshot(
  issue: IssuePayload,
  requester: Requester,
  instructions: string,
  earlier: readonly EarlierComment[],
): IssueSnapshot {
  return issueSnapshot({
    number: issue.number,
    title: issue.title,
    body: issue.body ?? '',
    updatedAt: issue.updated_at,
    earlier,
    comments: instructions === '' ? [] : [{ author: requester.login, body: instructions }],
  });
}

export interface BuilderDispatchInputs {
  readonly defaultBranch: string;
  readonly issue: number;
  readonly snapshot: string;
  readonly requester: number;
  readonly runId: string;
  readonly maxUsd?: number | undefined;
  readonly maxPoints?: number | undefined;
  /** What started the run, for the builder step to read again (action/dispatch-trigger.ts). */
  readonly trigger?: BuilderTrigger | undefined;
  /** A continuation's stopped workflow run, whose artifact it goes on from. */
  readonly resumeFrom?: number | undefined;
  /** A continuation's trigger: the writer's `/aureus approve-budget` comment. */
  readonly approval?: number | undefined;
}

/**
 * Dispatches the builder workflow on the default branch with the inputs its jobs check
 * (action/builder-dispatch.ts); the workflow run's id when GitHub says it. A 404 (no workflow
 * file on the default branch) is thrown for the caller to answer with MISSING_WORKFLOW_REPLY.
 */
export async function dispatchBuilderWorkflow(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  inputs: BuilderDispatchInputs,
): Promise<number | undefined> {
  const { data } = await client.request(
    'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',
    {
      owner: repository.owner,
      repo: repository.repo,
      workflow_id: BUILDER_WORKFLOW,
      ref: inputs.defaultBranch,
      inputs: {
        issue: String(inputs.issue),
        snapshot: inputs.snapshot,
        requester: String(inputs.requester),
        run_id: inputs.runId,
        ...(inputs.maxUsd === undefined ? {} : { budget_usd: String(inputs.maxUsd) }),
        ...(inputs.maxPoints === undefined ? {} : { budget_points: String(inputs.maxPoints) }),
        ...(inputs.trigger === undefined
          ? {}
          : { trigger: `${inputs.trigger.kind}-${inputs.trigger.id}` }),
        ...(inputs.approval === undefined ? {} : { trigger: `approval-${inputs.approval}` }),
        ...(inputs.resumeFrom === undefined ? {} : { resume_from: String(inputs.resumeFrom) }),
      },
      return_run_details: true,
    },
  );
  return workflowRunIdOf(data);
}

function workflowRunIdOf(data: unknown): number | undefined {
  if (typeof data !== 'object' || data === null || !('workflow_run_id' in data)) return undefined;
  return typeof data.workflow_run_id === 'number' ? data.workflow_run_id : undefined;
}
