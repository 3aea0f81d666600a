import type { CheckedChange } from '../check/check-api-change.js';
import {
  builderRunOfBranch,
  independentApprovers,
  withIndependentApproval,
} from '../github/builder-pull-approval.js';
import { triggerRunId } from '../github/builder-trigger.js';
import { builderTriggerers } from '../github/builder-triggers.js';
import type { GitHubClient } from '../github/github-client.js';
import { AUREUS_RULE, builderApprovalRequirement } from '../github/last-push-approval.js';
import { isPermissionDenied } from '../github/request-error.js';
import type { WorkflowEvent } from '../github/workflow-event.js';
import type { Report } from '../model/report.js';

/**
 * The App's rule for the builder's pull request, with the Action alone: its check fails until a
 * person with write access approves its head who is neither the pull request's author nor the
 * one who asked for the run. The Action keeps no record of who asked, and nothing the pull
 * request, its branch or a comment says can stand for one (any writer edits comments). So every
 * account that started the builder on the issue, as GitHub records it over the API (its
 * `/aureus implement` comments by account id and its builder-label events, builder-triggers.ts),
 * counts as the requester: the builder step refuses a dispatch whose requester is not the
 * author of the trigger it names (dispatch-trigger.ts), so the one who asked is among them.
 * The run's own trigger, the one its branch's run id is derived from, must still be there: a
 * requester who deleted it would otherwise approve their own run's pull request.
 * What cannot be read blocks, saying what to grant.
 */
export async function withBuilderApproval(
  event: WorkflowEvent,
  client: GitHubClient | null,
  checked: Pick<CheckedChange, 'report' | 'policy'>,
): Promise<Report> {
  const { report } = checked;
  const target = event.target;
  if (target.kind !== 'pull-request') return report;
  const run = builderRunOfBranch(target.headRef);
  if (run === undefined) return report;
  const refuse = (why: string) =>
    withIndependentApproval(report, { ...run, notIndependent: [] }, [], AUREUS_RULE, why);
  if (client === null)
    return refuse('the job has no token to read the reviews and the issue: give it github-token.');
  const where = { ...event.repository, issue_number: run.issue };
  try {
    const { data: pull } = await client.rest.pulls.get({
      ...event.repository,
      pull_number: target.number,
    });
    const label = checked.policy.integrations.app.builder_label;
    const triggers = await builderTriggerers(client, where, label);
    if (!triggers.complete)
      return refuse(
        `issue #${run.issue} has more than the ${triggers.bound} AUREUS reads to learn who started the builder on it.`,
      );
    // Who asked is the author of the trigger the run's id is derived from (one trigger, one
    // run): a record the requester cannot edit away. A comment's author stays its author
    // whoever edits it; label events cannot be removed; and the branch's run id is fixed when
    // the publish job pushes it. A requester who deletes their trigger comment after the pull
    // request opened would drop out of every list read from the issue: then no trigger
    // derives the run id, who asked is unknown, and the check blocks (fails closed) rather
    // than let anyone's approval count as independent. A branch named like the builder's but
    // pushed by hand, or one of a run from before run ids were derived from triggers, ends the
    // same way: the check says what is true (no trigger derives the id), not why it might be.
    const asked = triggers.triggers.find(
      (trigger) => triggerRunId(event.repository, run.issue, trigger) === run.runId,
    );
    if (asked === undefined)
      return refuse(
        `no /aureus implement comment or ${label} label event on issue #${run.issue} derives run id ${run.runId}, so this branch was not started by a trigger AUREUS can verify and who asked is unknown. Start a new run with /aureus implement on issue #${run.issue}.`,
      );
    const builder = {
      ...run,
      notIndependent: [
        asked.authorId,
        ...triggers.ids,
        ...(pull.user === null ? [] : [pull.user.id]),
      ],
    };
    const required = await builderApprovalRequirement(client, event.repository, pull.base.ref);
    const approvers = await independentApprovers(
      client,
      event.repository,
      { number: target.number, head: { sha: target.headSha } },
      builder,
      required.approvals,
    );
    return withIndependentApproval(
      report,
      builder,
      approvers,
      required,
      `with the Action, the requester is everyone who started the builder on issue #${run.issue} (an /aureus implement comment or the ${label} label).`,
    );
  } catch (error) {
    if (!isPermissionDenied(error)) throw error;
    return refuse(
      `AUREUS could not read the pull request, its reviews or issue #${run.issue}'s comments and events: grant this job pull-requests: read and issues: read.`,
    );
  }
}
