import { builderRunComment, builderRunMarker } from '../github/builder-run-comment.js';
import { livePermission, mayRunCommands } from '../github/collaborator-permission.js';
import type { GitHubClient } from '../github/github-client.js';
import { parseCommand } from '../github/parse-command.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/**
 * The run's tracking comment: the one the App posted when it dispatched the run, found by the
 * run's marker among the comments of the App's bot (the dispatch's sender, by account id). A
 * look-alike comment of another bot or App is neither read as the run's state nor edited.
 */
export async function findTrackingComment(
  client: GitHubClient,
  dispatch: BuilderDispatch,
): Promise<TrackingComment | undefined> {
  return trackingAmong(await issueComments(client, dispatch), dispatch);
}

type IssueComment = Awaited<ReturnType<typeof issueComments>>[number];

/** The run's tracking comment as listed: its id, text and when the App posted it. */
type TrackingComment = Pick<IssueComment, 'id' | 'body' | 'created_at'>;

function issueComments(client: GitHubClient, dispatch: BuilderDispatch) {
  return client.paginate(client.rest.issues.listComments, {
    ...dispatch.repository,
    issue_number: dispatch.issue,
    per_page: 100,
  });
}

function trackingAmong(
  comments: readonly IssueComment[],
  dispatch: BuilderDispatch,
): IssueComment | undefined {
  const marker = builderRunMarker(dispatch.runId);
  return comments.find(
    (comment) =>
      comment.user?.type === 'Bot' &&
      comment.user.id === dispatch.dispatcher &&
      (comment.body ?? '').startsWith(marker),
  );
}

/**
 * Whether the run was cancelled: its tracking comment says so, or a person with write access or
 * more commented `/aureus cancel` on the issue since this run was asked for (one run per issue at
 * a time, so that cancel is this run's). The comment is the App's mark and a job of the run edits
 * it too: a job that read it just before the cancel and wrote its phase just after would erase
 * the mark, and the command on the issue, which no job edits, cannot be erased so.
 *
 * A continuation keeps the tracking comment of the run it goes on from: a cancel written while
 * that run was stopped found nothing running (the App said so) and is older than the approval
 * that continued it, so it does not stop the continuation. Each author's role is looked up once:
 * anyone may comment `/aureus cancel`, and one account's flood of them must not spend the job
 * token's requests.
 */
export async function cancelled(client: GitHubClient, dispatch: BuilderDispatch): Promise<boolean> {
  const comments = await issueComments(client, dispatch);
  const tracking = trackingAmong(comments, dispatch);
  if (tracking === undefined) return false;
  if (saysCancelled(tracking, dispatch)) return true;
  const approval = comments.find((comment) => comment.id === dispatch.approval);
  const since = Math.max(
    Date.parse(tracking.created_at),
    approval === undefined ? 0 : Date.parse(approval.created_at),
  );
  const looked = new Set<number>();
  for (const comment of comments) {
    const author = comment.user;
    if (
      author === null ||
      author.type !== 'User' ||
      looked.has(author.id) ||
      Date.parse(comment.created_at) < since ||
      parseCommand(comment.body ?? '')?.kind !== 'cancel'
    )
      continue;
    looked.add(author.id);
    const permission = await livePermission(client, dispatch.repository, author);
    if (mayRunCommands(permission.role)) return true;
  }
  return false;
}

/** Whether a tracking comment already read says the run was cancelled. */
export function saysCancelled(
  found: { readonly body?: string | undefined } | undefined,
  dispatch: BuilderDispatch,
): boolean {
  return (found?.body ?? '').startsWith(builderRunComment(dispatch.runId, 'cancelled'));
}

/**
 * Edits the run's tracking comment (the App's, found by its marker among its bot's comments),
 * or posts one when there is none to edit; never one that says the run was cancelled.
 */
export async function tellTrackingComment(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  phase: string,
  detail: string,
  more = '',
): Promise<void> {
  const where = { ...dispatch.repository, issue_number: dispatch.issue };
  const found = await findTrackingComment(client, dispatch);
  // Read again right before the edit: a run cancelled meanwhile stays marked cancelled.
  if (saysCancelled(found, dispatch)) return;
  const body = `${builderRunComment(dispatch.runId, phase, detail.slice(0, 4000))}${more === '' ? '' : `\n\n${more.slice(0, 16000)}`}`;
  if (found === undefined) await client.rest.issues.createComment({ ...where, body });
  else
    await client.rest.issues.updateComment({ ...dispatch.repository, comment_id: found.id, body });
}
