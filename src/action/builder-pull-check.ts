import type { CheckedChange } from '../check/check-api-change.js';
import {
  builderRunOfBranch,
  independentApprovers,
  withIndependentApproval,
} from '../github/builder-pull-approval.js';
import { builderTriggerers } from '../github/builder-triggers.js';
import type { GitHubClient } from '../github/github-client.js';
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
    withIndependentApproval(report, { ...run, notIndependent: [] }, [], why);
  if (client === null)
    return refuse('The job has no token to read the reviews and the issue: give it github-token.');
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
        `Issue #${run.issue} has more than the ${triggers.bound} AUREUS reads to learn who started the builder on it.`,
      );
    const builder = {
      ...run,
      notIndependent: [...triggers.ids, ...(pull.user === null ? [] : [pull.user.id])],
    };
    const approvers = await independentApprovers(
      client,
      event.repository,
      { number: target.number, head: { sha: target.headSha } },
      builder,
    );
    return withIndependentApproval(
      report,
      builder,
      approvers,
      `With the Action, the requester is everyone who started the builder on issue #${run.issue} (an /aureus implement comment or the ${label} label).`,
    );
  } catch (error) {
    if (!isPermissionDenied(error)) throw error;
    return refuse(
      `AUREUS could not read the pull request, its reviews or issue #${run.issue}'s comments and events: grant this job pull-requests: read and issues: read.`,
    );
  }
}
