import { compactJournalText } from '../memory/journal-compaction.js';
import { checkLine, GENESIS_HASH, parseJournal, summaryAt } from '../memory/journal-format.js';
import {
  type LedgerEntryFile,
  parseSharedLedgerFiles,
  SHARED_LEDGER_SUMMARY,
  SHARED_LEDGER_TIP,
  sharedLedgerTip,
} from '../memory/shared-ledger-entries.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';
import {
  branchHead,
  readTip,
  SHARED_LEDGER_BRANCH,
  SHARED_LEDGER_FOLDER,
} from './shared-ledger.js';

/**
 * Retention of the shared ledger: the entries older than the retention become one summary line
 * in `summary.json` (the same summary journal-compaction.ts writes for the local and the App's
 * journals), and their files leave the branch's tree. The oldest kept entry still names the last
 * replaced entry's hash, which the summary records, so `aureus ledger verify --shared` verifies
 * the whole tree, and an edited summary fails its checksum like any entry.
 *
 * The compaction is one commit on top of the branch head it read, and the branch moves to it only
 * by a fast-forward: the REST API's one compare-and-swap on a ref. A run that appended meanwhile
 * wins, and this compaction is dropped whole (the next run's is due as well), so no entry is ever
 * lost and a compaction that cannot finish leaves the branch as it was. The history is therefore
 * not cut: moving the branch to a new root commit would need a forced update, which the API
 * cannot make conditional, and could drop an entry appended in between. What the cut would
 * bound, the tree, is bounded: every commit's tree holds the retained entries only, and the
 * replaced entries stay readable in the branch's history, for an audit and for the trend chart
 * (shared-ledger-recent.ts), which walks the history.
 */

/** Most entries one compaction reads (one request each): a run's requests stay bounded. */
export const MAX_COMPACTION_READS = 500;

const DAY_MS = 24 * 60 * 60 * 1000;

export type SharedLedgerCompaction =
  | { readonly status: 'compacted'; readonly replaced: number; readonly kept: number }
  /** No branch yet, or its oldest entry is not a day past the retention. */
  | { readonly status: 'not-due' }
  | { readonly status: 'nothing' }
  /** An append moved the branch meanwhile: it stays as that run left it. */
  | { readonly status: 'moved' }
  /** Left as it is, and why: damage to report, or a limit reached. */
  | { readonly status: 'refused'; readonly why: string };

export interface SharedCompactionOptions {
  readonly days: number;
  readonly now: Date;
}

/**
 * Compacts the shared ledger when its oldest entry is a day past `days` (the tip carries that
 * entry's time), so the branch is rewritten at most about once a day: the rule the local
 * journals follow (journal-retention.ts).
 */
export async function compactSharedLedger(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  options: SharedCompactionOptions,
): Promise<SharedLedgerCompaction> {
  const { days, now } = options;
  const head = days > 0 ? await branchHead(client, repository) : null;
  if (head === null) return { status: 'not-due' };
  const tip = await readTip(client, repository, head);
  if (tip === null) return refused('it has no tip.json: its entries were written before the chain');
  const since = tip.since === undefined ? Number.NaN : Date.parse(tip.since);
  if (!(since < now.getTime() - (days + 1) * DAY_MS)) return { status: 'not-due' };

  const { data: commit } = await client.rest.git.getCommit({ ...repository, commit_sha: head });
  const read = await readLedgerTree(client, repository, commit.tree.sha);
  if ('why' in read) return refused(read.why);
  const contents = parseSharedLedgerFiles(read.files);
  if (!contents.intact)
    return refused(`it does not verify (${contents.problems[0]?.message ?? 'damaged'})`);
  if (contents.unchained > 0)
    return refused(`${contents.unchained} of its entries were written before the chain`);

  const ordered = chainOrder(read.files);
  const text = ordered.map((file) => file.text.trim()).join('\n');
  const journal = parseJournal(`${text}\n`);
  if (!journal.intact || ordered.length !== journal.entries.length)
    return refused('its entries do not form one chain');
  const cutoff = new Date(now.getTime() - days * DAY_MS).toISOString();
  const compacted = compactJournalText(`${text}\n`, journal, cutoff, now.toISOString());
  if (compacted === null) return { status: 'nothing' };
  const [summary = ''] = compacted.text.split('\n');
  const replaced = ordered.slice(0, compacted.removed);
  const oldestKept = journal.entries[compacted.removed];
  if (oldestKept === undefined) return { status: 'nothing' };

  const tree = await client.rest.git.createTree({
    ...repository,
    base_tree: commit.tree.sha,
    tree: [
      { path: SHARED_LEDGER_SUMMARY, mode: '100644', type: 'blob', content: `${summary}\n` },
      {
        path: SHARED_LEDGER_TIP,
        mode: '100644',
        type: 'blob',
        content: sharedLedgerTip(tip.entry, tip.hash, oldestKept.at),
      },
      ...replaced
        .filter((file) => file.path !== SHARED_LEDGER_SUMMARY)
        .map((file) => ({
          path: file.path,
          mode: '100644' as const,
          type: 'blob' as const,
          sha: null,
        })),
    ],
  });
  const entries = replaced.filter((file) => file.path !== SHARED_LEDGER_SUMMARY).length;
  const created = await client.rest.git.createCommit({
    ...repository,
    message: `aureus: ledger compaction of ${entries} entries before ${cutoff}`,
    tree: tree.data.sha,
    parents: [head],
  });
  try {
    await client.rest.git.updateRef({
      ...repository,
      ref: `heads/${SHARED_LEDGER_BRANCH}`,
      sha: created.data.sha,
      force: false,
    });
  } catch (error) {
    // Not a fast forward: an entry was appended after the head this compaction read.
    if (statusOf(error) === 422) return { status: 'moved' };
    throw error;
  }
  return { status: 'compacted', replaced: entries, kept: ordered.length - compacted.removed };
}

function refused(why: string): SharedLedgerCompaction {
  return { status: 'refused', why };
}

/** The summary, the entries and the tip at `tree`: one listing, then one request per file. */
async function readLedgerTree(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  tree: string,
): Promise<{ files: LedgerEntryFile[] } | { why: string }> {
  const { data } = await client.rest.git.getTree({ ...repository, tree_sha: tree, recursive: '1' });
  if (data.truncated) return { why: 'its tree is too large for the API to list in one answer' };
  const wanted = data.tree.filter(
    (item) =>
      item.type === 'blob' &&
      item.mode === '100644' &&
      item.path !== undefined &&
      item.sha !== undefined &&
      (item.path.startsWith(`${SHARED_LEDGER_FOLDER}/`) ||
        item.path === SHARED_LEDGER_SUMMARY ||
        item.path === SHARED_LEDGER_TIP),
  );
  if (wanted.length > MAX_COMPACTION_READS)
    return {
      why: `it holds ${wanted.length} files, more than the ${MAX_COMPACTION_READS} one compaction reads, whatever the retention, so it is left as it is: nothing is lost, and it grows as it did before a retention was set`,
    };
  const files: LedgerEntryFile[] = [];
  for (const item of wanted) {
    const blob = await client.rest.git.getBlob({ ...repository, file_sha: item.sha ?? '' });
    const text = Buffer.from(blob.data.content, 'base64').toString('utf8');
    files.push({ path: item.path ?? '', text });
  }
  return { files };
}

/**
 * The summary and the entries in the order of the chain (not of their times: a run that lost
 * the race to append links after the winner, whatever its clock said). The ledger verified, so
 * each link has one successor.
 */
function chainOrder(files: readonly LedgerEntryFile[]): LedgerEntryFile[] {
  const next = new Map<string, LedgerEntryFile>();
  for (const file of files) {
    const checked = file.path === SHARED_LEDGER_TIP ? null : checkLine(file.text.trim());
    if (checked !== null && checked.kind !== 'unparseable') next.set(checked.line.prev, file);
  }
  const ordered: LedgerEntryFile[] = [];
  let link = GENESIS_HASH;
  for (
    let file = next.get(link);
    file !== undefined && ordered.length < files.length;
    file = next.get(link)
  ) {
    ordered.push(file);
    const line = file.text.trim();
    const checked = checkLine(line);
    if (checked.kind === 'unparseable') break;
    link = file.path === SHARED_LEDGER_SUMMARY ? (summaryAt(line)?.tail ?? '') : checked.line.hash;
  }
  return ordered;
}
