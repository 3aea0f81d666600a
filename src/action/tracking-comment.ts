import { builderRunComment, builderRunMarker } from '../github/builder-run-comment.js';
import type { GitHubClient } from '../github/github-client.js';
import type { BuilderDispatch } from './builder-dispatch.js';

/**
 * The run's tracking comment: the one the App posted when it dispatched the run, found by the
 * run's marker among the comments of the App's bot (the dispatch's sender, by account id). A
 * look-alike comment of another bot or App is neither read as the run's state nor edited.
 */
export async function findTrackingComment(
  client: GitHubClient,
  dispatch: BuilderDispatch,
): Promise<{ readonly id: number; readonly body?: string | undefined } | undefined> {
  const marker = builderRunMarker(dispatch.runId);
  const comments = await client.paginate(client.rest.issues.listComments, {
    ...dispatch.repository,
    issue_number: dispatch.issue,
    per_page: 100,
  });
  return comments.find(
    (comment) =>
      comment.user?.type === 'Bot' &&
      comment.user.id === dispatch.dispatcher &&
      (comment.body ?? '').startsWith(marker),
  );
}

/** Whether the run's tracking record (the App's comment) says it was cancelled. */
export async function cancelled(client: GitHubClient, dispatch: BuilderDispatch): Promise<boolean> {
  return saysCancelled(await findTrackingComment(client, dispatch), dispatch);
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
 * or posts one when there is none to edit.
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
  const body = `${builderRunComment(dispatch.runId, phase, detail.slice(0, 4000))}${more === '' ? '' : `\n\n${more.slice(0, 16000)}`}`;
  if (found === undefined) await client.rest.issues.createComment({ ...where, body });
  else
    await client.rest.issues.updateComment({ ...dispatch.repository, comment_id: found.id, body });
}
