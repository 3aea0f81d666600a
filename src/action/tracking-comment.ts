import { builderRunMarker } from '../github/builder-run-comment.js';
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
