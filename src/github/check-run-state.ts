import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

export interface ExistingCheckRun {
  readonly id: number;
  readonly status: string;
  readonly conclusion: string | null;
  readonly externalId: string | null;
}

/**
 * The App's latest check run of this name on a commit, if any. It is what makes a redelivered
 * or repeated event idempotent without any state in the App: a head that already has a
 * concluded AUREUS check is not judged again, and one left in progress by a crash is taken
 * over instead of doubled (THREATS row 2).
 */
export async function latestCheckRun(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  headSha: string,
  name: string,
  appId: number,
): Promise<ExistingCheckRun | undefined> {
  const { data } = await client.rest.checks.listForRef({
    owner: repository.owner,
    repo: repository.repo,
    ref: headSha,
    check_name: name,
    app_id: appId,
    filter: 'latest',
    per_page: 1,
  });
  const run = data.check_runs[0];
  if (run === undefined) return undefined;
  return {
    id: run.id,
    status: run.status,
    conclusion: run.conclusion,
    externalId: run.external_id,
  };
}
