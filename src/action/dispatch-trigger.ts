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
 * `/aureus implement` command; or the issue's label event adding the builder label, by that
 * account. Either way the account's live role is write or higher. A dispatch naming someone who
 * did not ask (a writer's workflow dispatching as github-actions[bot] in a colleague's name, so
 * as to approve the result themselves) is refused. A dispatch with no trigger is the App's
 * (builder-dispatch.ts refuses one by the job token's account), and its ledger is the record.
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
  let author: { readonly id: number; readonly login: string } | null;
  if (trigger.kind === 'comment') {
    const comment = await client.rest.issues
      .getComment({ ...dispatch.repository, comment_id: trigger.id })
      .then(({ data }) => data)
      .catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      });
    if (comment === undefined) throw refuse('is no comment of this repository');
    if (!comment.issue_url.endsWith(`/issues/${dispatch.issue}`))
      throw refuse(`is a comment on another issue than #${dispatch.issue}`);
    if (parseCommand(comment.body ?? '')?.kind !== 'implement')
      throw refuse('is not an /aureus implement command');
    author = comment.user;
  } else {
    const listed = await labelEvents(client, where);
    const event = listed.events.find((each) => each.id === trigger.id);
    if (event === undefined)
      throw refuse(
        listed.complete
          ? `is no label event of issue #${dispatch.issue}`
          : `is not among the events of issue #${dispatch.issue} AUREUS reads`,
      );
    const label = await builderLabel();
    if (event.label !== label) throw refuse(`added the label ${event.label}, not ${label}`);
    author = event.actor;
  }
  if (author === null || author.id !== dispatch.requester)
    throw refuse(`is by ${author === null ? 'a deleted account' : `account ${author.id}`}`);
  const permission = await livePermission(client, dispatch.repository, author);
  if (!mayRunCommands(permission.role))
    throw refuse(`is by ${author.login}, whose permission is not write, maintain or admin`);
}
