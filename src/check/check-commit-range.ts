import { memoizedTreeReader } from '../github/api-trees.js';
import type { GitHubClient } from '../github/github-client.js';
import { type RangeTarget, readRangeChange } from '../github/range-change.js';
import {
  type CheckedChange,
  type CheckOverApiOptions,
  checkApiChange,
} from './check-api-change.js';

export type CheckCommitRangeOptions = CheckOverApiOptions;

/**
 * The App's check of two commits, with no checkout: a merge queue's group (`base_sha`,
 * `head_sha`) or any range. The Report is the one `checkChange` gives on a clone for the
 * three-dot range base…head (but for `change.source`, `github`), from the REST API alone. The
 * change comes from `readRangeChange`; the rest (policy from the merge base, both sides
 * analysed whole from their trees, a budget approval for this head) from `checkApiChange`,
 * exactly as for a pull request.
 *
 * Requests: those of `readRangeChange` (1 compare, 2 recursive trees, 1 blob per distinct
 * readable changed side), then those of `checkApiChange` (1 blob for the base policy until its
 * parse is cached, 1 per source file or resolution config the store lacks). Trees are read
 * once. A compare cut at 300 files, unreadable blobs and truncated trees make the Report
 * incomplete; other API errors are thrown.
 */
export async function checkCommitRange(
  client: GitHubClient,
  target: RangeTarget,
  options: CheckCommitRangeOptions,
): Promise<CheckedChange> {
  const repository = { owner: target.owner, repo: target.repo };
  const readTree = memoizedTreeReader(client, repository);
  const limit = options.maxBlobBytes === undefined ? {} : { maxBlobBytes: options.maxBlobBytes };
  const change = await readRangeChange(client, target, { ...limit, readTree });
  const subject = `commits ${target.baseSha}…${target.headSha}`;
  return checkApiChange({ client, repository, readTree, change, subject }, options);
}
