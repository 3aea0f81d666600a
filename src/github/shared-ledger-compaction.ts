import { compactJournalText } from '../memory/journal-compaction.js';
import {
  checkLine,
  GENESIS_HASH,
  type JournalContents,
  parseJournal,
  summaryAt,
} from '../memory/journal-format.js';
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
import { sharedLedgerEntryOrder } from './shared-ledger-order.js';

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

/**
 * Most files one compaction reads (one request each): a run's requests stay bounded. A longer
 * ledger is compacted in steps, one a run, each reading its summary and oldest entries only.
 */
export const MAX_COMPACTION_READS = 500;

const DAY_MS = 24 * 60 * 60 * 1000;

export type SharedLedgerCompaction =
  | {
      readonly status: 'compacted';
      readonly replaced: number;
      readonly kept: number;
      /** Entries past the retention remain beyond the files this step could read. */
      readonly more: boolean;
    }
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
  const read = await readLedgerPart(client, repository, head, commit.tree.sha);
  if ('why' in read) return refused(read.why);
  const checked = verifiedChain(read);
  if ('why' in checked) return refused(checked.why);
  const { ordered, text, journal } = checked;
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
  // A step stopped by the read limit, not by the cutoff, leaves older entries for the next run.
  const more = !read.whole && oldestKept.at < cutoff;
  return { status: 'compacted', replaced: entries, kept: read.total - compacted.removed, more };
}

function refused(why: string): SharedLedgerCompaction {
  return { status: 'refused', why };
}

/** What a compaction read: the whole ledger, or its summary and oldest entries only. */
interface LedgerPart {
  readonly files: LedgerEntryFile[];
  /** Every file of the ledger was read, the tip included. */
  readonly whole: boolean;
  /** The summary and entry files on the branch, read or not. */
  readonly total: number;
}

/**
 * The ledger at `tree`, one listing and then one request per file: the whole of it when that is
 * at most MAX_COMPACTION_READS files, else the summary and the oldest entries up to that many,
 * found in the branch's history (sharedLedgerEntryOrder), so a long ledger is compacted a step
 * a run, oldest first.
 */
async function readLedgerPart(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  head: string,
  tree: string,
): Promise<LedgerPart | { why: string }> {
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
  const total = wanted.filter((item) => item.path !== SHARED_LEDGER_TIP).length;
  const readAll = async (items: typeof wanted): Promise<LedgerEntryFile[]> => {
    const files: LedgerEntryFile[] = [];
    for (const item of items) {
      const blob = await client.rest.git.getBlob({ ...repository, file_sha: item.sha ?? '' });
      const text = Buffer.from(blob.data.content, 'base64').toString('utf8');
      files.push({ path: item.path ?? '', text });
    }
    return files;
  };
  if (wanted.length <= MAX_COMPACTION_READS)
    return { files: await readAll(wanted), whole: true, total };

  const entries = new Map(
    wanted
      .filter((item) => item.path?.startsWith(`${SHARED_LEDGER_FOLDER}/`))
      .map((item) => [item.path ?? '', item]),
  );
  const order = await sharedLedgerEntryOrder(client, repository, head, new Set(entries.keys()));
  if ('why' in order) return order;
  const summary = wanted.filter((item) => item.path === SHARED_LEDGER_SUMMARY);
  const oldest = order.paths
    .slice(0, MAX_COMPACTION_READS - summary.length)
    .flatMap((path) => entries.get(path) ?? []);
  return { files: await readAll([...summary, ...oldest]), whole: false, total };
}

/**
 * The files read, in the order of their chain, once they verify: the whole ledger as `aureus
 * ledger verify --shared` does, or the oldest part as one chain from the summary (or the start)
 * to its newest entry, which then stands in for the tip. A step verifies what it replaces; the
 * entries it does not read stay byte for byte, and whatever is wrong with them is reported as
 * before.
 */
function verifiedChain(
  read: LedgerPart,
): { ordered: LedgerEntryFile[]; text: string; journal: JournalContents } | { why: string } {
  const last = read.files.at(-1);
  const lastLine = last === undefined ? null : checkLine(last.text.trim());
  const files =
    read.whole || last === undefined || lastLine === null || lastLine.kind === 'unparseable'
      ? read.files
      : [
          ...read.files,
          { path: SHARED_LEDGER_TIP, text: sharedLedgerTip(last.path, lastLine.line.hash) },
        ];
  const which = read.whole
    ? 'it does not verify'
    : `the ${read.files.length} oldest of its files do not verify`;
  const contents = parseSharedLedgerFiles(files);
  if (!contents.intact) return { why: `${which} (${contents.problems[0]?.message ?? 'damaged'})` };
  if (contents.unchained > 0)
    return { why: `${contents.unchained} of its entries were written before the chain` };
  const ordered = chainOrder(files);
  const text = ordered.map((file) => file.text.trim()).join('\n');
  const journal = parseJournal(`${text}\n`);
  const chained = read.files.filter((file) => file.path !== SHARED_LEDGER_TIP).length;
  if (!journal.intact || ordered.length !== journal.entries.length || ordered.length !== chained)
    return { why: 'its entries do not form one chain' };
  return { ordered, text, journal };
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
