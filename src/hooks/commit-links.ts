import type { Override } from '../check/record-check.js';
import { commitContent } from '../git/change-content-id.js';
import { runGit } from '../git/git-runner.js';
import { localLedgerAnchor } from '../git/ledger-anchor.js';
import { appendToJournal, readJournalTail } from '../memory/journal.js';
import type { JournalLine } from '../memory/journal-format.js';
import { checkedLocalDir, storePaths } from '../memory/store-paths.js';
import type { JsonObject } from '../model/json.js';
import { OVERRIDE_TRAILER } from './commit-in-progress.js';

/**
 * The local ledger's links from commits to the hook checks they were made from. A hook checks
 * the staged change before the commit exists, so its entry cannot name the commit; the
 * post-commit hook appends a `commit` entry naming it and the check's line (by hash), once the
 * commit holds exactly the content that was checked. pre-push reads these links back to honour
 * an override given when the commit was made.
 */

/**
 * How much of the ledger's end the hooks read: thousands of entries. A commit checked longer
 * ago than that is checked again, never assumed overridden.
 */
const LEDGER_TAIL_BYTES = 512 * 1024;

export interface CommitLink {
  readonly commit: string;
  /** The hash of the ledger line of the check the commit was made from. */
  readonly check: string;
  readonly verdict: string;
}

/**
 * post-commit: appends the link from HEAD to the newest staged check of exactly its content,
 * on HEAD's parent or, after `git commit --amend`, on the commit it replaced. Null when no such
 * check exists (committed with --no-verify after an edit, or never checked): nothing is linked.
 */
export async function linkHeadCommit(root: string): Promise<CommitLink | null> {
  const head = await revision(root, 'HEAD');
  if (head === null) return null;
  const ledger = storePaths(root).ledger;
  await checkedLocalDir(root);
  const lines = await readJournalTail(ledger, LEDGER_TAIL_BYTES);
  if (lines.some((line) => line.record.kind === 'commit' && line.record.commit === head))
    return null;
  const made = await commitContent(root, head);
  let check = newestCheck(lines, made.parent, made.contentId);
  const replaced = check === undefined ? await revision(root, 'HEAD@{1}') : null;
  if (replaced !== null && replaced !== made.parent && replaced !== head) {
    const amended = await commitContent(root, head, replaced);
    check = newestCheck(lines, replaced, amended.contentId);
  }
  if (check === undefined) return null;
  const link = { commit: head, check: check.hash, verdict: text(check.record.verdict) };
  await appendToJournal(
    ledger,
    { kind: 'commit', ...link, parent: made.parent },
    { anchor: await localLedgerAnchor(root) },
  );
  return link;
}

function newestCheck(
  lines: readonly JournalLine[],
  base: string | null,
  contentId: string,
): JournalLine | undefined {
  return lines.findLast(
    ({ record }) =>
      record.kind === 'check' &&
      record.source === 'staged' &&
      record.content === contentId &&
      (record.base ?? null) === base,
  );
}

/** A commit of a pushed range: its id, whether it is a merge, and the override it carries. */
export interface RangeCommit {
  readonly commit: string;
  readonly merge: boolean;
  readonly override: (Override & { readonly from: string }) | null;
}

/**
 * The commits `head` adds to `base` (or `head` alone when base is null), newest first, at most
 * `limit` (null when there are more), each with its override: the `Aureus-Override:` trailer
 * of its message (git's own trailer parser decides what a trailer is), else an override the
 * local ledger recorded for the check it was made from.
 */
export async function rangeCommits(
  root: string,
  base: string | null,
  head: string,
  limit: number,
): Promise<RangeCommit[] | null> {
  const range =
    base === null ? ['--max-count=1', head] : [`--max-count=${limit + 1}`, head, `^${base}`];
  const format = `%H%x1f%P%x1f%an <%ae>%x1f%(trailers:key=${OVERRIDE_TRAILER},valueonly,separator=%x1e)`;
  const log = await runGit(root, ['log', '-z', `--format=${format}`, ...range, '--']);
  const records = log.stdout
    .toString('utf8')
    .split('\0')
    .filter((record) => record.trim() !== '');
  if (records.length > limit) return null;
  const recorded = await recordedOverrides(root);
  return records.map((record) => {
    const [commit = '', parents = '', author = '', trailers = ''] = record
      .replace(/^\n/, '')
      .split('\x1f');
    const reason = trailers
      .split('\x1e')
      .map((each) => each.trim())
      .filter((each) => each !== '')
      .at(-1);
    const override =
      reason !== undefined
        ? { by: author, reason, from: `its ${OVERRIDE_TRAILER} trailer` }
        : (recorded.get(commit) ?? null);
    return { commit, merge: parents.trim().includes(' '), override };
  });
}

/** Overrides the local ledger recorded for checks that became commits, by commit. */
async function recordedOverrides(
  root: string,
): Promise<Map<string, Override & { readonly from: string }>> {
  await checkedLocalDir(root);
  const lines = await readJournalTail(storePaths(root).ledger, LEDGER_TAIL_BYTES);
  const byHash = new Map(lines.map((line) => [line.hash, line.record]));
  const overrides = new Map<string, Override & { readonly from: string }>();
  for (const { record } of lines) {
    if (record.kind !== 'commit') continue;
    const override = byHash.get(text(record.check))?.override;
    if (!isObject(override)) continue;
    overrides.set(text(record.commit), {
      by: text(override.by),
      reason: text(override.reason),
      from: 'the override recorded when it was committed',
    });
  }
  return overrides;
}

async function revision(root: string, name: string): Promise<string | null> {
  const answer = await runGit(root, ['rev-parse', '-q', '--verify', `${name}^{commit}`], {
    okExitCodes: [0, 1, 128],
  });
  return answer.exitCode === 0 ? answer.stdout.toString('utf8').trim() : null;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
