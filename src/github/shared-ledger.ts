import { setTimeout as sleep } from 'node:timers/promises';
import { formatLine, GENESIS_HASH, serializeRecord } from '../memory/journal-format.js';
import {
  readSharedLedgerTip,
  SHARED_LEDGER_TIP,
  type SharedLedgerTip,
  sharedLedgerTip,
} from '../memory/shared-ledger-entries.js';
import { AureusError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';
import { statusOf } from './request-error.js';

/**
 * The repository's shared ledger: a branch of its own holding one file per evaluated head
 * commit (`entries/<sha>.json`) and `tip.json`, which names the newest entry. A run that is
 * repeated finds its file and writes nothing: one entry per (head SHA). The branch is written
 * only by CI through the API; pull requests never touch it.
 *
 * Each entry's `prev` is the hash of the newest entry when it was written, so the entries form
 * one hash chain (see parseSharedLedgerFiles). Concurrent writers never fork it: each builds
 * its commit on the branch head it read and moves the branch only if it is still there (a
 * fast-forward update, git's compare-and-swap); the one that loses re-reads the new tip and
 * links after it. No two runs write the same entry file, so nothing is ever merged.
 */
export const SHARED_LEDGER_BRANCH = 'aureus-ledger';
export const SHARED_LEDGER_FOLDER = 'entries';
/** What the commit that appends an entry says (see writeOnce): the commit the entry judged. */
export const SHARED_LEDGER_ENTRY_MESSAGE = /^aureus: ledger entry for ([0-9a-f]{40,64})$/;

/** Concurrent writers move the branch under each other; each retry re-reads it. */
const ATTEMPTS = 5;
const RETRY_BASE_MS = 300;

export type SharedLedgerResult = 'written' | 'present';

export interface SharedLedgerEntry {
  readonly headSha: string;
  /** ISO time of the check. */
  readonly at: string;
  readonly record: JsonObject;
}

/** Each entry file is one checksummed journal line linked to `prev`, readable by `aureus ledger`. */
export function sharedLedgerLine(entry: SharedLedgerEntry, prev: string): LedgerLine {
  const { text, hash } = formatLine(prev, entry.at, serializeRecord(entry.record));
  return { text: `${text}\n`, hash };
}

interface LedgerLine {
  readonly text: string;
  readonly hash: string;
}

/** An entry's line and the oldest entry's time the tip carries beside it. */
interface TippedLine extends LedgerLine {
  readonly since: string;
}

export async function appendToSharedLedger(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  entry: SharedLedgerEntry,
): Promise<SharedLedgerResult> {
  if (!/^[0-9a-f]{40,64}$/.test(entry.headSha))
    throw new RangeError(`not a commit id: ${entry.headSha}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeOnce(client, repository, entry);
    } catch (error) {
      // 422: the branch moved under us (not a fast forward), or another run created it.
      const status = statusOf(error);
      if (attempt >= ATTEMPTS || (status !== 409 && status !== 422)) throw error;
      await sleep(RETRY_BASE_MS * attempt + Math.floor(Math.random() * RETRY_BASE_MS));
    }
  }
}

async function writeOnce(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  entry: SharedLedgerEntry,
): Promise<SharedLedgerResult> {
  const path = `${SHARED_LEDGER_FOLDER}/${entry.headSha}.json`;
  const message = `aureus: ledger entry for ${entry.headSha}`;
  const head = await branchHead(client, repository);
  if (head === null) {
    const line = { ...sharedLedgerLine(entry, GENESIS_HASH), since: entry.at };
    const commit = await commitEntry(client, repository, path, line, message, null);
    // 422 when another run created the branch first: the retry links after its entry.
    await client.rest.git.createRef({
      ...repository,
      ref: `refs/heads/${SHARED_LEDGER_BRANCH}`,
      sha: commit,
    });
    return 'written';
  }
  if ((await readFile(client, repository, path, head)) !== null) return 'present';
  const tip = await readTip(client, repository, head);
  const line = sharedLedgerLine(entry, tip?.hash ?? GENESIS_HASH);
  // A tip from before `since` existed says nothing of the oldest entry: counting from this one
  // only delays the first compaction, never compacts too early.
  const since = tip?.since ?? entry.at;
  const commit = await commitEntry(client, repository, path, { ...line, since }, message, head);
  await client.rest.git.updateRef({
    ...repository,
    ref: `heads/${SHARED_LEDGER_BRANCH}`,
    sha: commit,
    force: false,
  });
  return 'written';
}

/** The commit holding the new entry and the tip naming it, on top of `parent` (none: an orphan). */
async function commitEntry(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  path: string,
  line: TippedLine,
  message: string,
  parent: string | null,
): Promise<string> {
  const base =
    parent === null
      ? undefined
      : (await client.rest.git.getCommit({ ...repository, commit_sha: parent })).data.tree.sha;
  const tree = await client.rest.git.createTree({
    ...repository,
    ...(base === undefined ? {} : { base_tree: base }),
    tree: [
      { path, mode: '100644', type: 'blob', content: line.text },
      {
        path: SHARED_LEDGER_TIP,
        mode: '100644',
        type: 'blob',
        content: sharedLedgerTip(path, line.hash, line.since),
      },
    ],
  });
  const commit = await client.rest.git.createCommit({
    ...repository,
    message,
    tree: tree.data.sha,
    parents: parent === null ? [] : [parent],
  });
  return commit.data.sha;
}

/**
 * Where the next entry links: the tip `tip.json` holds, or none (the start of a chain) on a
 * ledger written before entries were chained. A tip that does not read is refused rather than
 * replaced: linking past it would hide whatever changed it.
 */
export async function readTip(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  head: string,
): Promise<SharedLedgerTip | null> {
  const text = await readFile(client, repository, SHARED_LEDGER_TIP, head);
  if (text === null) return null;
  const tip = readSharedLedgerTip(text);
  if (tip === undefined)
    throw new AureusError(
      `the shared ledger's ${SHARED_LEDGER_TIP} on branch ${SHARED_LEDGER_BRANCH} is damaged, so the new entry cannot be linked to it.`,
      `run \`aureus ledger verify --shared\` to see what changed on the branch, and restore ${SHARED_LEDGER_TIP} from its history.`,
    );
  return tip;
}

/** The commit the `aureus-ledger` branch points at, or null when there is no such branch. */
export async function branchHead(
  client: GitHubClient,
  repository: RepositoryCoordinates,
): Promise<string | null> {
  try {
    const ref = await client.rest.git.getRef({
      ...repository,
      ref: `heads/${SHARED_LEDGER_BRANCH}`,
    });
    return ref.data.object.sha;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** A file's text at commit `ref`, or null when there is none. */
export async function readFile(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  path: string,
  ref: string,
): Promise<string | null> {
  try {
    const { data } = await client.rest.repos.getContent({ ...repository, path, ref });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return '';
    return Buffer.from(data.content, 'base64').toString('utf8');
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}
