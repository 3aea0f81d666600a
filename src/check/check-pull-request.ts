import { memoizedTreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import { type PullRequestTarget, readPullRequestChange } from '../github/pull-request-change.js';
import {
  type CheckedChange,
  type CheckOverApiOptions,
  checkApiChange,
} from './check-api-change.js';

export type { CheckedChange } from './check-api-change.js';

export type CheckPullRequestOptions = CheckOverApiOptions;

/**
 * The App's check of a pull request, with no checkout: the Report `checkChange` gives on a clone
 * for the three-dot range merge base…head (but for `change.source`, `github`), from the REST API
 * alone. The change comes from `readPullRequestChange`; the rest (policy from the merge base,
 * both sides analysed whole from their trees) from `checkApiChange`.
 *
 * Requests: those of `readPullRequestChange` (2 pulls.get, 1 compare, 1 listFiles per 100
 * files, 2 recursive trees, 1 blob per distinct readable changed side), then those of
 * `checkApiChange` (1 blob for the base policy until its parse is cached, 1 per source file or
 * resolution config the store lacks). Trees are read once. Unreadable blobs and truncated trees
 * make the Report incomplete; other API errors are thrown.
 */
export async function checkPullRequest(
  client: GitHubClient,
  target: PullRequestTarget,
  options: CheckPullRequestOptions,
): Promise<CheckedChange> {
  const repository = { owner: target.owner, repo: target.repo };
  const readTree = memoizedTreeReader(client, repository);
  const limit = options.maxBlobBytes === undefined ? {} : { maxBlobBytes: options.maxBlobBytes };
  const change = await readPullRequestChange(client, target, { ...limit, readTree });
  const subject = `pull request #${target.number}`;
  return checkApiChange({ client, repository, readTree, change, subject }, options);
}
