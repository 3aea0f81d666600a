import {
  builderRunComment,
  builderRunMarker,
  readStoppedRunState,
  STOPPED_PHASE,
  type StoppedRunState,
} from '../github/builder-run-comment.js';
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

/**
 * What the run's tracking record says a continuation starts from: the state the publish job
 * wrote when the run stopped for want of budget, or undefined when it did not stop so.
 */
export async function stoppedRunState(
  client: GitHubClient,
  dispatch: BuilderDispatch,
): Promise<StoppedRunState | undefined> {
  const body = (await findTrackingComment(client, dispatch))?.body ?? '';
  return body.startsWith(builderRunComment(dispatch.runId, STOPPED_PHASE))
    ? readStoppedRunState(body)
    : undefined;
}
