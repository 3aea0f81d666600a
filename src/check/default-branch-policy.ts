import { memoizedTreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import type { Policy } from '../model/policy.js';
import { apiRepositorySource } from '../scan/api-repository-source.js';
import { committedPolicy, POLICY_PATH } from './policy-at-commit.js';

/**
 * The policy on the tip of the default branch, read over the API: what the repository has
 * agreed to, for settings that belong to no change (which bots may run commands, whether the
 * builder may start). Never a pull request's own policy, nor whatever a workflow checked out.
 */
export async function readDefaultBranchPolicy(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  defaultBranch: string,
  options: { readonly cacheDir: string | undefined; readonly policyPath?: string },
): Promise<Policy> {
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const { data: ref } = await client.rest.git.getRef({
    ...coordinates,
    ref: `heads/${defaultBranch}`,
  });
  const source = apiRepositorySource(client, coordinates, {
    cacheDir: options.cacheDir,
    readTree: memoizedTreeReader(client, coordinates),
  });
  return (await committedPolicy(source, ref.object.sha, options.policyPath ?? POLICY_PATH)).policy;
}
