import { BUILDER_WORKFLOW } from '../github/builder-trigger.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { AureusError } from '../model/errors.js';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Pages of 100 runs read to count the day's: a bound that refuses when reached. */
const MAX_RUN_PAGES = 10;

/**
 * The builder workflow's dispatched runs of the 24 hours before `now`, as GitHub lists them
 * (newest first), read until an older one: when each was created, oldest first. With `before`
 * (a workflow run id), only the runs GitHub numbered before it: the runs dispatched ahead of
 * that one. Past MAX_RUN_PAGES pages the count is not known in full, and that is an error
 * rather than a count of part. GitHub's errors (403, 404) are the caller's to read.
 */
export async function builderRunsOfDay(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  options: { readonly now: number; readonly before?: number },
): Promise<readonly number[]> {
  const since = options.now - DAY_MS;
  const created: number[] = [];
  let pages = 0;
  for await (const page of client.paginate.iterator(
    'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
    { ...repository, workflow_id: BUILDER_WORKFLOW, event: 'workflow_dispatch', per_page: 100 },
  )) {
    const recent = page.data.filter((run) => Date.parse(run.created_at) > since);
    for (const run of recent)
      if (options.before === undefined || run.id < options.before)
        created.push(Date.parse(run.created_at));
    if (recent.length < page.data.length) break;
    if (++pages >= MAX_RUN_PAGES)
      throw new AureusError(
        `${BUILDER_WORKFLOW} has run more than ${MAX_RUN_PAGES * 100} times in the last 24 hours, more than AUREUS reads to count the day's builder runs.`,
        "start the builder when the day's runs are fewer, or use the AUREUS App, which keeps its own count.",
      );
  }
  return created.sort((a, b) => a - b);
}
