import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { SHARED_LEDGER_ENTRY_MESSAGE, SHARED_LEDGER_FOLDER } from './shared-ledger.js';

/** Commits one history request lists: GitHub's most per page. */
const PER_PAGE = 100;
/**
 * History pages walked beyond one per hundred entries: the commits between the entries that are
 * not appends (compactions, a hand edit). More than that and the order is left unknown.
 */
const SLACK_PAGES = 10;

/**
 * The entry files of the shared ledger in the order they were appended, oldest first, read from
 * the branch's history (each append is one commit that says which entry it wrote) at 100 commits
 * a request instead of one request per file: a compaction can then read the oldest entries only.
 * The walk stops once every file in `paths` is placed, after about one page per 100 entries.
 *
 * The order is a guess to verify, not a fact: the caller checks that the entries it reads link
 * into one chain. An entry file no append commit names (written by hand, or by a commit past the
 * pages walked) has no known place, so no order is given, and nothing is compacted.
 */
export async function sharedLedgerEntryOrder(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  head: string,
  paths: ReadonlySet<string>,
): Promise<{ readonly paths: string[] } | { readonly why: string }> {
  const newestFirst: string[] = [];
  const placed = new Set<string>();
  const pages = Math.ceil(paths.size / PER_PAGE) + SLACK_PAGES;
  let walked = 0;
  let ended = false;
  const iterator = client.paginate.iterator(client.rest.repos.listCommits, {
    ...repository,
    sha: head,
    per_page: PER_PAGE,
  });
  for await (const page of iterator) {
    walked++;
    for (const { commit } of page.data) {
      const named = SHARED_LEDGER_ENTRY_MESSAGE.exec(commit.message.trim())?.[1];
      const path = `${SHARED_LEDGER_FOLDER}/${named}.json`;
      // The newest append of a path wrote the file the tree holds (a re-run after a compaction
      // appends its commit's entry again).
      if (named === undefined || !paths.has(path) || placed.has(path)) continue;
      placed.add(path);
      newestFirst.push(path);
    }
    if (placed.size === paths.size) break;
    if (walked >= pages) {
      ended = true;
      break;
    }
  }
  if (placed.size === paths.size) return { paths: newestFirst.reverse() };
  const missing = paths.size - placed.size;
  return {
    why: ended
      ? `${missing} of its ${paths.size} entries are not among the last ${pages * PER_PAGE} commits of its history, so their place in the chain is unknown`
      : `${missing} of its ${paths.size} entries were written by no append commit of its history, so their place in the chain is unknown`,
  };
}
