import type { GitHubClient } from '../github/github-client.js';
import {
  listIssueComments,
  MAX_SNAPSHOT_COMMENT_PAGES,
  peoplesComments,
} from '../github/issue-comments.js';
import { type IssueSnapshot, type IssueText, issueSnapshot } from '../github/issue-snapshot.js';
import { parseCommand } from '../github/parse-command.js';
import { statusOf } from '../github/request-error.js';
import { AureusError } from '../model/errors.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/**
 * The issue text the requester approved, rebuilt from the issue as it is now with the same
 * function the App used at trigger time (THREATS row 7): when its hash is not the one the App
 * dispatched, the issue changed since, and the run stops before any model sees a word of it.
 * The App quoted people's comments up to the trigger, and the trigger's instructions when it had
 * any; the dispatch does not say where the trigger was, so each place in the comments is tried
 * in turn: before each comment (a label, or a command without instructions, there), and with
 * the instructions of each of the requester's (by account id) `/aureus implement` comments.
 * A later comment leaves the snapshot as it was; an edited earlier one matches no place.
 */
export async function approvedIssue(
  client: GitHubClient,
  dispatch: BuilderDispatch,
): Promise<IssueSnapshot> {
  const where = { ...dispatch.repository, issue_number: dispatch.issue };
  const { data: issue } = await client.rest.issues.get(where).catch((error: unknown) => {
    const status = statusOf(error);
    if (status !== 403 && status !== 404) throw error;
    throw new AureusError(
      `cannot read issue #${dispatch.issue} (GitHub answered ${status}).`,
      'give the build job issues: read, and start the builder from an issue of this repository.',
    );
  });
  const text: IssueText = {
    number: dispatch.issue,
    title: issue.title,
    body: issue.body ?? '',
    updatedAt: issue.updated_at,
    comments: [],
  };
  const listed = await listIssueComments(client, where);
  const all = listed.comments;
  for (let end = 0; end <= all.length; end++) {
    const earlier = peoplesComments(all.slice(0, end));
    const plain = issueSnapshot({ ...text, earlier });
    if (plain.hash === dispatch.snapshot) return plain;
    const trigger = all[end];
    if (trigger === undefined || trigger.authorId !== dispatch.requester) continue;
    const command = parseCommand(trigger.body);
    if (command?.kind !== 'implement' || command.instructions === '') continue;
    const withInstructions = issueSnapshot({
      ...text,
      earlier,
      comments: [{ author: trigger.author, body: command.instructions }],
    });
    if (withInstructions.hash === dispatch.snapshot) return withInstructions;
  }
  // Past the pages read, the trigger may be there unread: say so rather than blame an edit.
  if (!listed.complete)
    throw new AureusError(
      `issue #${dispatch.issue}'s text is not the one approved, and its trigger was not among its first ${MAX_SNAPSHOT_COMMENT_PAGES * 100} comments, where AUREUS looks for it.`,
      `start the builder on a new issue that states the task.`,
    );
  throw new AureusError(
    `issue #${dispatch.issue} was edited after the trigger: its title, body or an earlier comment is not the one approved with /aureus implement (snapshot ${dispatch.snapshot.slice(0, 12)}).`,
    `comment /aureus implement again on issue #${dispatch.issue} to start a run on its current text.`,
  );
}
