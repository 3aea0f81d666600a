import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

export interface MergedPullRequest {
  readonly number: number;
  /** The pull request's final head: the commit its reviews approved or not. */
  readonly headSha: string;
}

/**
 * The pull request merged into `branch` as `commitSha` (a merge, squash or rebase commit, or
 * its head itself after a fast-forward), from GitHub's "pull requests associated with a
 * commit"; undefined when the commit came another way (pushed directly). A pull request that
 * is open, or was merged into another branch, is not it: its reviews approved nothing here.
 * Needs `contents: read` and `pull-requests: read`.
 */
export async function mergedPullRequest(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  commitSha: string,
  branch: string,
): Promise<MergedPullRequest | undefined> {
  const pages = client.paginate.iterator(client.rest.repos.listPullRequestsAssociatedWithCommit, {
    owner: repository.owner,
    repo: repository.repo,
    commit_sha: commitSha,
    per_page: 100,
  });
  for await (const page of pages) {
    for (const pull of page.data) {
      if (pull.merged_at === null || pull.base.ref !== branch) continue;
      if (pull.merge_commit_sha === commitSha || pull.head.sha === commitSha)
        return { number: pull.number, headSha: pull.head.sha };
    }
  }
  return undefined;
}
