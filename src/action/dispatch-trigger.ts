import { triggerRunId } from '../github/builder-trigger.js';
import { labelEvents } from '../github/builder-triggers.js';
import { livePermission, mayRunCommands } from '../github/collaborator-permission.js';
import type { GitHubClient } from '../github/github-client.js';
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
 * as to approve the result themselves) is refused. A dispatch with no trigger is the App's
 * (builder-dispatch.ts refuses one by the job token's account), and its ledger is the record.
 *
 * A trigger starts one run: the run id must be the one derived from it (triggerRunId), and a
 * trigger older than the issue's last title change is refused, since the requester asked for
 * the issue as it was then. (GitHub's REST API records no time for a body edit: the snapshot
 * hash, checked by approved-issue.ts, is what ties the body to the dispatch.)
 */
export async function verifyDispatchTrigger(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  builderLabel: () => Promise<string>,
): Promise<void> {
  const trigger = dispatch.trigger;
  if (trigger === undefined) return;
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
  if (author === null || author.id !== dispatch.requester)
    throw refuse(`is by ${author === null ? 'a deleted account' : `account ${author.id}`}`);
  const permission = await livePermission(client, dispatch.repository, author);
  if (!mayRunCommands(permission.role))
    throw refuse(`is by ${author.login}, whose permission is not write, maintain or admin`);
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
): Promise<void> {
  const trigger = dispatch.trigger;
  if (trigger === undefined) return;
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
