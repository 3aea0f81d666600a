import { committedPolicy } from '../check/policy-at-commit.js';
import { memoizedTreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import type { Policy } from '../model/policy.js';
import { apiRepositorySource } from '../scan/api-repository-source.js';
import type { AppServices } from './evaluation-request.js';
import type { AppRepository } from './judged-change.js';

/**
 * The policy on the tip of the default branch: what the repository has agreed to, for settings
 * that belong to no change (which bots may run commands). Never a pull request's own policy.
 */
export async function readDefaultBranchPolicy(
  client: GitHubClient,
  services: Pick<AppServices, 'dataDir'>,
  repository: AppRepository,
  defaultBranch: string,
): Promise<Policy> {
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const { data: ref } = await client.rest.git.getRef({
    ...coordinates,
    ref: `heads/${defaultBranch}`,
  });
  const source = apiRepositorySource(client, coordinates, {
    cacheDir: appCacheFolder(services.dataDir),
    readTree: memoizedTreeReader(client, coordinates),
  });
  return (await committedPolicy(source, ref.object.sha)).policy;
}
