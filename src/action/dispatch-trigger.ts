import { BUILDER_WORKFLOW, triggerRunId } from '../github/builder-trigger.js';
import { labelEvents } from '../github/builder-triggers.js';
import { livePermission, mayRunCommands } from '../github/collaborator-permission.js';
import type { GitHubClient } from '../github/github-client.js';
import { editAfterTrigger } from '../github/issue-edits.js';
import { parseCommand } from '../github/parse-command.js';
import { statusOf } from '../github/request-error.js';
import { AureusError } from '../model/errors.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/**
 * The dispatch's requester, proven from GitHub's own record of the trigger it names, before any
 * model runs: the comment on the dispatched issue, by the requester's account id, still an
 * `/aureus implement` command, never edited since it was written; or the issue's label event adding the builder label, by that
 * account. Either way the account's live role is write or higher. A dispatch naming someone who
 * did not ask (a writer's workflow dispatching as github-actions[bot] in a colleague's name, so
 * as to approve the result themselves) is refused. Every dispatch names its trigger
 * (builder-dispatch.ts), whoever sent it: the App's bot, github-actions[bot] or any other App's
 * bot meet the same checks. A continuation's trigger is a writer's approval (verifyApproval).
 *
 * A trigger starts one run: the run id must be the one derived from it (triggerRunId), and a
 * trigger older than the issue's last title change is refused, since the requester asked for
 * the issue as it was then; so is one older than an edit of the body or of an earlier comment
 * (GraphQL's edit times: REST records none for a body). The snapshot hash, checked by
 * approved-issue.ts, ties the run to the text as the dispatcher read it.
 */
export async function verifyDispatchTrigger(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  builderLabel: () => Promise<string>,
): Promise<void> {
  const trigger = dispatch.trigger;
  if (trigger === undefined) return verifyApproval(client, dispatch);
  const where = { ...dispatch.repository, issue_number: dispatch.issue };
  const refuse = (what: string) =>
    new AureusError(
      `the dispatch names account ${dispatch.requester} as the requester, and its trigger ${trigger.kind}-${trigger.id} ${what}.`,
      `start the builder with /aureus implement (or the builder label) on issue #${dispatch.issue}: the aureus-commands workflow dispatches the run in the name of who asked.`,
    );
  const derived = triggerRunId(dispatch.repository, dispatch.issue, trigger);
  if (dispatch.runId !== derived)
    throw refuse(
      `starts run ${derived}, not run ${dispatch.runId}: one trigger starts one run, whose id it names`,
    );
  const listed = await labelEvents(client, where);
  // A title change past the bound would go unseen: refused rather than let through.
  if (!listed.complete)
    throw refuse(
      `is on issue #${dispatch.issue}, whose events are more than AUREUS reads to see when it was last edited`,
    );
  let author: { readonly id: number; readonly login: string } | null;
  let askedAt: string;
  if (trigger.kind === 'comment') {
    const comment = await client.rest.issues
      .getComment({ ...dispatch.repository, comment_id: trigger.id })
      .then(({ data }) => data)
      .catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      });
    // A comment deleted since is no trigger: its author may have withdrawn the request, and the
    // pull request's check (which lists the issue's triggers) no longer counts them a requester.
    if (comment === undefined)
      throw refuse('is no comment of this repository (or was deleted since)');
    if (!comment.issue_url.endsWith(`/issues/${dispatch.issue}`))
      throw refuse(`is a comment on another issue than #${dispatch.issue}`);
    // Any writer can edit anyone's comment, and GitHub keeps the author: an edited comment's
    // text says nothing of what its author wrote, so it proves no request of theirs.
    if (comment.updated_at !== comment.created_at)
      throw refuse(
        `was edited after it was written (created ${comment.created_at}, updated ${comment.updated_at}), and an edited comment proves no request of its author`,
      );
    if (parseCommand(comment.body ?? '')?.kind !== 'implement')
      throw refuse('is not an /aureus implement command');
    author = comment.user;
    askedAt = comment.created_at;
  } else {
    const event = listed.events.find((each) => each.id === trigger.id);
    if (event === undefined) throw refuse(`is no label event of issue #${dispatch.issue}`);
    const label = await builderLabel();
    if (event.label !== label) throw refuse(`added the label ${event.label}, not ${label}`);
    author = event.actor;
    askedAt = event.createdAt;
  }
  // Same-second times cannot be ordered: the edit is taken as later (fail closed).
  if (listed.lastRenamedAt !== undefined && listed.lastRenamedAt >= askedAt)
    throw refuse(
      `is older than the issue's last edit: the issue was edited after the trigger (its title changed at ${listed.lastRenamedAt}, the trigger is of ${askedAt})`,
    );
  // A body or earlier comment edited after the trigger: the requester asked for the issue as it
  // was, and the snapshot hash only ties the run to the text the dispatcher read (issue-edits.ts).
  const edit = await editAfterTrigger(client, where, {
    at: askedAt,
    ...(trigger.kind === 'comment' ? { commentId: trigger.id } : {}),
  });
  if (edit !== undefined)
    throw refuse(
      `is older than the issue's last edit: the issue was edited after the trigger (${edit}; the trigger is of ${askedAt})`,
    );
  if (author === null || author.id !== dispatch.requester)
    throw refuse(`is by ${author === null ? 'a deleted account' : `account ${author.id}`}`);
  const permission = await livePermission(client, dispatch.repository, author);
  if (!mayRunCommands(permission.role))
    throw refuse(`is by ${author.login}, whose permission is not write, maintain or admin`);
}

/**
 * A continuation's trigger, read again from GitHub: the `/aureus approve-budget` comment on the
 * dispatched issue, never edited, still approving the very budget the dispatch carries, by an
 * account that is not the requester (who may not raise their own run's budget, for the reason
 * they may not approve its pull request) and whose live role is write or higher. That the run
 * it continues was stopped, and answers this issue, run id and requester, is the stopped
 * workflow run's artifact's to prove (stopped-run-handoff.ts); that the approval is newer than
 * the stop and lets only one continuation go on, refuseUsedTrigger's.
 */
async function verifyApproval(client: GitHubClient, dispatch: BuilderDispatch): Promise<void> {
  const id = dispatch.approval;
  const refuse = (what: string) =>
    new AureusError(
      `the dispatch continues run ${dispatch.runId} on issue #${dispatch.issue}, and its approval ${id === undefined ? '(none)' : `comment ${id}`} ${what}.`,
      `continue a stopped run through /aureus approve-budget on issue #${dispatch.issue}, written by a person with write access who did not request the run.`,
    );
  if (id === undefined || dispatch.resumeFrom === undefined)
    throw refuse('is missing: a continuation answers a writer’s /aureus approve-budget');
  const comment = await approvalComment(client, dispatch, id);
  if (comment === undefined)
    throw refuse('is no comment of this repository (or was deleted since)');
  if (!comment.issue_url.endsWith(`/issues/${dispatch.issue}`))
    throw refuse(`is a comment on another issue than #${dispatch.issue}`);
  if (comment.updated_at !== comment.created_at)
    throw refuse(
      `was edited after it was written (created ${comment.created_at}, updated ${comment.updated_at}), and an edited comment proves no approval of its author`,
    );
  const command = parseCommand(comment.body ?? '');
  if (command?.kind !== 'approve-budget' || command.amount === undefined)
    throw refuse('is not an /aureus approve-budget command with an amount');
  const amount = command.amount;
  const approved =
    'usd' in amount ? dispatch.maxUsd === amount.usd : dispatch.maxPoints === amount.points;
  if (!approved)
    throw refuse(
      `approves ${'usd' in amount ? `$${amount.usd}` : `${amount.points} points`}, not the budget the dispatch carries`,
    );
  const author = comment.user;
  if (author === null) throw refuse('is by a deleted account');
  if (author.id === dispatch.requester)
    throw refuse(`is by the requester (account ${author.id}), who may not raise their own budget`);
  const permission = await livePermission(client, dispatch.repository, author);
  if (!mayRunCommands(permission.role))
    throw refuse(`is by ${author.login}, whose permission is not write, maintain or admin`);
}

async function approvalComment(client: GitHubClient, dispatch: BuilderDispatch, id: number) {
  return client.rest.issues
    .getComment({ ...dispatch.repository, comment_id: id })
    .then(({ data }) => data)
    .catch((error: unknown) => {
      if (statusOf(error) === 404) return undefined;
      throw error;
    });
}

/**
 * Before any model runs: a run its trigger already started is refused, whatever became of it.
 * Its branch `aureus/issue-<n>-<run id>`, a ref keeping a stopped run's work
 * (`refs/aureus/runs/<run id>/…`) or a pull request from that branch, open, closed or merged,
 * each shows the trigger was used, as GitHub records it (a deleted branch keeps its pull
 * request). Only for a dispatch that names its trigger: the App dispatches a stopped run again,
 * with the same id, when a writer approves a larger budget, and its ledger records each one.
 */
export async function refuseUsedTrigger(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  currentWorkflowRun: number,
): Promise<void> {
  const trigger = dispatch.trigger;
  if (trigger === undefined) return refuseUsedApproval(client, dispatch, currentWorkflowRun);
  const branch = `aureus/issue-${dispatch.issue}-${dispatch.runId}`;
  const used = (what: string) =>
    new AureusError(
      `the trigger ${trigger.kind}-${trigger.id} of this dispatch already started run ${dispatch.runId} on issue #${dispatch.issue}: ${what}. One trigger starts one run.`,
      `start a new run with a new /aureus implement comment (or by adding the builder label again) on issue #${dispatch.issue}.`,
    );
  const notFound = (error: unknown) => {
    if (statusOf(error) === 404) return undefined;
    throw error;
  };
  const ref = await client.rest.git
    .getRef({ ...dispatch.repository, ref: `heads/${branch}` })
    .catch(notFound);
  if (ref !== undefined) throw used(`its branch ${branch} exists`);
  const { data: kept } = await client.rest.git.listMatchingRefs({
    ...dispatch.repository,
    ref: `aureus/runs/${dispatch.runId}/`,
  });
  const [first] = kept;
  if (first !== undefined) throw used(`its stopped work is kept at ${first.ref}`);
  const { data: pulls } = await client.rest.pulls
    .list({
      ...dispatch.repository,
      head: `${dispatch.repository.owner}:${branch}`,
      state: 'all',
      per_page: 1,
    })
    .catch((error: unknown) => {
      if (statusOf(error) !== 403) throw error;
      throw new AureusError(
        `GitHub refused to list the pull requests of ${branch} (403), which shows whether the trigger ${trigger.kind}-${trigger.id} already started a run.`,
        'give the plan job pull-requests: read, as the builder workflow of aureus init --builder does (aureus init --builder --force rewrites an older copy).',
      );
    });
  const [pull] = pulls;
  if (pull !== undefined) throw used(`pull request #${pull.number} was opened from ${branch}`);
}

/** Pages of 100 builder workflow runs read back to the approval: past them, refused. */
const MAX_RUN_PAGES = 10;

/**
 * Before a continuation's model runs: its approval lets one continuation of one stop go on.
 * The stopped workflow run must have ended (GitHub's record) before the approval was written,
 * so an approval of an earlier stop carries no later one; no pull request or branch of the run
 * may exist (it ended); and no other builder run may have been dispatched between the approval
 * and this one (GitHub's run ids grow), so the same approval dispatched twice goes on once.
 * The last fails closed: another issue's run dispatched in that window refuses the continuation,
 * and the writer approves again.
 */
async function refuseUsedApproval(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  currentWorkflowRun: number,
): Promise<void> {
  const id = dispatch.approval;
  const from = dispatch.resumeFrom;
  if (id === undefined || from === undefined) return;
  const used = (what: string) =>
    new AureusError(
      `the approval comment ${id} cannot continue run ${dispatch.runId} on issue #${dispatch.issue}: ${what}.`,
      `approve the stopped run's budget again with /aureus approve-budget on issue #${dispatch.issue}, once its tracking comment says it stopped.`,
    );
  if (!Number.isSafeInteger(currentWorkflowRun) || currentWorkflowRun <= 0)
    throw used('the workflow run this job runs in is unknown (GITHUB_RUN_ID)');
  const comment = await approvalComment(client, dispatch, id);
  if (comment === undefined) throw used('it was deleted');
  const stopped = await client.rest.actions
    .getWorkflowRun({ ...dispatch.repository, run_id: from })
    .then(({ data }) => data)
    .catch((error: unknown) => {
      if (statusOf(error) === 404) return undefined;
      throw error;
    });
  // No such run: nothing to go on from, which the hand-on refuses next, before any model runs
  // (stopped-run-handoff.ts), saying so in its own words.
  if (stopped === undefined) return;
  if (stopped.status !== 'completed') throw used(`workflow run ${from} has not ended`);
  // Same-second times cannot be ordered: the approval is taken as the earlier (fail closed).
  if (comment.created_at <= stopped.updated_at)
    throw used(
      `it was written at ${comment.created_at}, before workflow run ${from} ended (${stopped.updated_at}): it approved an earlier stop`,
    );
  const branch = `aureus/issue-${dispatch.issue}-${dispatch.runId}`;
  const ref = await client.rest.git
    .getRef({ ...dispatch.repository, ref: `heads/${branch}` })
    .catch((error: unknown) => {
      if (statusOf(error) === 404) return undefined;
      throw error;
    });
  if (ref !== undefined) throw used(`the run has ended: its branch ${branch} exists`);
  let pages = 0;
  for await (const page of client.paginate.iterator(client.rest.actions.listWorkflowRuns, {
    ...dispatch.repository,
    workflow_id: BUILDER_WORKFLOW,
    event: 'workflow_dispatch',
    per_page: 100,
  })) {
    for (const run of page.data)
      if (run.id < currentWorkflowRun && run.created_at >= comment.created_at)
        throw used(
          `builder workflow run ${run.id} was dispatched after it, before this run (${currentWorkflowRun}): one approval lets one continuation go on`,
        );
    if (page.data.some((run) => run.created_at < comment.created_at)) return;
    if (++pages >= MAX_RUN_PAGES)
      throw used(
        `the builder workflow has run more than ${MAX_RUN_PAGES * 100} times since, more than AUREUS reads to see that the approval was not used`,
      );
  }
}
