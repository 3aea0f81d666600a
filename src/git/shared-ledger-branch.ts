import { SHARED_LEDGER_SUMMARY, SHARED_LEDGER_TIP } from '../memory/shared-ledger-entries.js';
import { AureusError } from '../model/errors.js';
import { runGit } from './git-runner.js';
import { listTrackedFiles } from './list-files.js';
import { readBlobs } from './read-blobs.js';
import { openRepository, type Repository } from './repository.js';
import { findCommit } from './revisions.js';

/** The branch CI writes the shared ledger to: one file per judged commit under `entries/`, and the tip. */
const BRANCH = 'aureus-ledger';
const ENTRIES = 'entries/';
const FETCH_TIMEOUT_MS = 60_000;

export interface SharedLedgerFile {
  readonly path: string;
  readonly text: string;
}

export interface SharedLedgerBranch {
  /** The ref read, e.g. refs/remotes/origin/aureus-ledger. */
  readonly ref: string;
  /** The entries, the tip file and a compaction's summary, in path order. */
  readonly files: readonly SharedLedgerFile[];
  /** Facts for the reader, such as a fetch that failed and the local copy used instead. */
  readonly notes: readonly string[];
}

/**
 * The entries of the shared ledger: fetched from the remote's `aureus-ledger` branch (into
 * refs/remotes/<remote>/aureus-ledger, never touching local branches), or the copy already
 * fetched when the remote cannot be reached. Read from git objects, never a checkout.
 */
export async function readSharedLedgerBranch(
  repoDir: string,
  remote: string,
  via?: RemoteAccess,
): Promise<SharedLedgerBranch> {
  const repository = await openRepository(repoDir);
  const tracking = `refs/remotes/${remote}/${BRANCH}`;
  const notes: string[] = [];
  const fetched = await fetchBranch(repository, remote, tracking, via);
  if (fetched !== null) notes.push(fetched);
  const ref = (await findCommit(repository, tracking))
    ? tracking
    : (await findCommit(repository, `refs/heads/${BRANCH}`))
      ? `refs/heads/${BRANCH}`
      : null;
  if (ref === null)
    throw new AureusError(
      `there is no shared ledger: ${remote} has no ${BRANCH} branch${fetched === null ? '' : ` (${fetched})`}.`,
      `the AUREUS Action writes it on pushes to the default branch (shared-ledger: true, with contents: write); until then, aureus ledger show reads the local ledger.`,
    );
  const entries = (await listTrackedFiles(repository.cwd, ref)).filter(
    (file) =>
      (file.path.startsWith(ENTRIES) ||
        file.path === SHARED_LEDGER_TIP ||
        file.path === SHARED_LEDGER_SUMMARY) &&
      file.mode === '100644',
  );
  const versions = await readBlobs(repository.cwd, entries);
  const files = versions.map((version) => ({ path: version.path, text: version.text ?? '' }));
  return { ref, files, notes };
}

/**
 * The remote's address and the environment its git calls need (a token in an extra header, as
 * a CI job gives it), when the remote's own settings do not reach it.
 */
export interface RemoteAccess {
  readonly url: string;
  readonly options: { readonly env: Readonly<Record<string, string>> };
}

/** null when fetched; otherwise why not, as a note. */
async function fetchBranch(
  repository: Repository,
  remote: string,
  tracking: string,
  via: RemoteAccess | undefined,
): Promise<string | null> {
  if (!/^[A-Za-z0-9._-]+$/.test(remote))
    throw new AureusError(
      `${JSON.stringify(remote)} is not a remote name.`,
      'name a remote of this repository, such as origin.',
    );
  try {
    await runGit(
      repository.cwd,
      ['fetch', '--no-tags', '--quiet', via?.url ?? remote, `+refs/heads/${BRANCH}:${tracking}`],
      { timeoutMs: FETCH_TIMEOUT_MS, ...(via === undefined ? {} : { env: via.options.env }) },
    );
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `could not fetch ${BRANCH} from ${remote}: ${reason}`;
  }
}
