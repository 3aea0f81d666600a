import type { GitHubClient } from '../github/github-client.js';
import { type IssueSnapshot, type IssueText, issueSnapshot } from '../github/issue-snapshot.js';
import { parseCommand } from '../github/parse-command.js';
import { statusOf } from '../github/request-error.js';
import { AureusError } from '../model/errors.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/** The requester's comments looked at for the `/aureus implement` that carried instructions. */
const MAX_COMMENT_PAGES = 10;

/**
 * The issue text the requester approved, rebuilt from the issue as it is now with the same
 * function the App used at trigger time (THREATS row 7): when its hash is not the one the App
 * dispatched, the issue changed since, and the run stops before any model sees a word of it.
 * A `/aureus implement` with instructions put them in the snapshot as the requester's comment:
 * those of the requester's comments (by account id) that carry the command are tried in turn.
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
  const plain = issueSnapshot(text);
  if (plain.hash === dispatch.snapshot) return plain;
  let pages = 0;
  let stopped = false;
  for await (const page of client.paginate.iterator(client.rest.issues.listComments, {
    ...where,
    per_page: 100,
  })) {
    for (const comment of page.data) {
      if (comment.user?.id !== dispatch.requester) continue;
      const command = parseCommand(comment.body ?? '');
      if (command?.kind !== 'implement' || command.instructions === '') continue;
      const withInstructions = issueSnapshot({
        ...text,
        comments: [{ author: comment.user.login, body: command.instructions }],
      });
      if (withInstructions.hash === dispatch.snapshot) return withInstructions;
    }
    if (++pages >= MAX_COMMENT_PAGES) {
      stopped = true;
      break;
    }
  }
  // Past the pages read, the command may be there unread: say so rather than blame an edit.
  if (stopped)
    throw new AureusError(
      `issue #${dispatch.issue}'s text is not the one approved, and its requester's /aureus implement was not among its first ${MAX_COMMENT_PAGES * 100} comments, where AUREUS looks for it.`,
      `comment /aureus implement again on issue #${dispatch.issue}, or start the run on a new issue.`,
    );
  throw new AureusError(
    `issue #${dispatch.issue} was edited after the trigger: its text is not the one approved with /aureus implement (snapshot ${dispatch.snapshot.slice(0, 12)}).`,
    `comment /aureus implement again on issue #${dispatch.issue} to start a run on its current text.`,
  );
}
