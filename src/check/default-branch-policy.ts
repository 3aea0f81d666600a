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
  return (await readDefaultBranchPolicyFile(client, repository, defaultBranch, options)).policy;
}

/**
 * As readDefaultBranchPolicy, with the committed file's text (null when the branch has none and
 * the built-in policy applies): what a proposed edit of the policy is a diff of.
 */
export async function readDefaultBranchPolicyFile(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  defaultBranch: string,
  options: { readonly cacheDir: string | undefined; readonly policyPath?: string },
): Promise<{ readonly policy: Policy; readonly text: string | null; readonly commit: string }> {
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const { data: ref } = await client.rest.git.getRef({
    ...coordinates,
    ref: `heads/${defaultBranch}`,
  });
  const source = apiRepositorySource(client, coordinates, {
    cacheDir: options.cacheDir,
    readTree: memoizedTreeReader(client, coordinates),
  });
  const commit = ref.object.sha;
  const path = options.policyPath ?? POLICY_PATH;
  // committedPolicy refuses links, binary and invalid files first: a file read below is text.
  const { policy } = await committedPolicy(source, commit, path);
  const entry = (await source.listFiles(commit)).find((file) => file.path === path);
  if (entry === undefined) return { policy, text: null, commit };
  const [read] = await source.readBlobs([entry]);
  const text = read?.version?.kind === 'text' ? read.version.text : undefined;
  if (text === undefined)
    throw new Error(`${path}@${commit.slice(0, 12)} could not be read again as text`);
  return { policy, text, commit };
}
