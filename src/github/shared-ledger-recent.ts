import type { JournalEntry } from '../memory/journal-format.js';
import { parseSharedLedgerFiles } from '../memory/shared-ledger-entries.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import {
  branchHead,
  readFile,
  SHARED_LEDGER_ENTRY_MESSAGE,
  SHARED_LEDGER_FOLDER,
} from './shared-ledger.js';

/**
 * The newest entries of the shared ledger, oldest first, read over the API by walking back at
 * most `commits` commits of the `aureus-ledger` branch (each one commit adds one entry): two
 * requests per entry, however long the ledger. A compaction's commit adds none and is walked
 * past: the entries it removed from the tree are still in the commits before it. An entry whose checksum fails, or that holds
 * another commit's record, is left out, as every reader of the shared ledger does. No branch:
 * no entries.
 */
export async function recentSharedLedgerEntries(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  commits: number,
): Promise<JournalEntry[]> {
  let commit = await branchHead(client, repository);
  const files: { path: string; text: string }[] = [];
  for (let walked = 0; commit !== null && walked < commits; walked++) {
    const { data } = await client.rest.git.getCommit({ ...repository, commit_sha: commit });
    const head = SHARED_LEDGER_ENTRY_MESSAGE.exec(data.message.trim())?.[1];
    if (head !== undefined) {
      const path = `${SHARED_LEDGER_FOLDER}/${head}.json`;
      const text = await readFile(client, repository, path, commit);
      if (text !== null) files.push({ path, text });
    }
    commit = data.parents.length === 1 ? (data.parents[0]?.sha ?? null) : null;
  }
  return parseSharedLedgerFiles(files).entries;
}
