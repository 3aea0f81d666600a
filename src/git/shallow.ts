import { AureusError } from '../model/errors.js';
import { runGit } from './git-runner.js';
import type { Repository } from './repository.js';
import { findCommit, findCommits, findMergeBase } from './revisions.js';

/** How far to deepen a shallow clone, in turn, to find a merge base; then all history. */
const DEEPEN_STEPS = [50, 500] as const;
const FETCH_TIMEOUT_MS = 120_000;

export interface HistoryAccess {
  readonly repository: Repository;
  /** Whether a shallow clone may fetch what it lacks from its remote. */
  readonly fetchMissing: boolean;
  /** Facts for Change.notes, such as "fetched the base from origin". */
  readonly notes: string[];
}

/**
 * The commit `revision` names. A shallow clone that lacks it fetches it from its remote
 * (`git fetch --no-tags --depth=1 <remote> <revision>`) and goes on. When that is not
 * possible the answer is an AureusError (exit 2), never a diff against the wrong base: a
 * shallow checkout is how an empty diff passes a gate (tj-actions#737, beachball#780).
 */
export async function requireCommit(
  access: HistoryAccess,
  revision: string,
  what: string,
): Promise<string> {
  const found = await findCommit(access.repository, revision);
  if (found) return found;
  if (!access.repository.shallow) {
    throw new AureusError(
      `the ${what} revision "${revision}" does not name a commit in this repository.`,
      'check the name, or fetch it first (git fetch origin <ref>).',
    );
  }
  const subject = `${what} commit ${revision}`;
  const remote = await fetchableRemote(access, subject);
  await fetchOrExplain(access, ['--depth=1', remote, revision], subject);
  // A name (not an id) the remote resolved lands only in FETCH_HEAD.
  const fetched =
    (await findCommit(access.repository, revision)) ??
    (await findCommit(access.repository, 'FETCH_HEAD'));
  if (!fetched) throw missingFromShallowClone(subject, `${remote} did not provide it`);
  access.notes.push(`Fetched the ${what} commit ${fetched} from ${remote}: the clone is shallow.`);
  return fetched;
}

/**
 * requireCommit for two revisions (`[revision, what]` each): when both are present, as nearly
 * always, one git process finds them; a missing one is then required alone, with its fetch or
 * its error, the first one's first.
 */
export async function requireCommitPair(
  access: HistoryAccess,
  first: readonly [revision: string, what: string],
  second: readonly [revision: string, what: string],
): Promise<readonly [string, string]> {
  const [one, two] = await findCommits(access.repository, [first[0], second[0]]);
  return [
    one ?? (await requireCommit(access, ...first)),
    two ?? (await requireCommit(access, ...second)),
  ];
}

/**
 * The merge base of two commits that are present. A shallow clone usually cuts history
 * before it, so the clone is deepened step by step, then unshallowed, until one is found.
 */
export async function requireMergeBase(
  access: HistoryAccess,
  base: string,
  head: string,
): Promise<string> {
  let found = await findMergeBase(access.repository, base, head);
  if (found) return found;
  if (await isShallow(access.repository)) {
    const subject = `history back to the merge base of ${base} and ${head}`;
    const remote = await fetchableRemote(access, subject);
    const steps = [...DEEPEN_STEPS.map((depth) => `--deepen=${depth}`), '--unshallow'];
    for (const step of steps) {
      await fetchOrExplain(access, [step, remote, base], subject);
      found = await findMergeBase(access.repository, base, head);
      if (found) {
        access.notes.push(`Deepened the shallow clone from ${remote} to find the merge base.`);
        return found;
      }
      if (!(await isShallow(access.repository))) break;
    }
  }
  throw new AureusError(
    `the base ${base} and the head ${head} share no history, so there is no merge base to compare with.`,
    'compare the two commits directly (a two-dot range) or check that they belong to the same repository.',
  );
}

async function fetchableRemote(access: HistoryAccess, subject: string): Promise<string> {
  if (!access.fetchMissing) throw missingFromShallowClone(subject, 'fetching was turned off');
  const remote = await pickRemote(access.repository);
  if (!remote) throw missingFromShallowClone(subject, 'there is no remote to fetch it from');
  return remote;
}

async function fetchOrExplain(
  access: HistoryAccess,
  args: readonly string[],
  subject: string,
): Promise<void> {
  try {
    await runGit(access.repository.cwd, ['fetch', '--no-tags', '--quiet', ...args], {
      timeoutMs: FETCH_TIMEOUT_MS,
    });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
    throw missingFromShallowClone(subject, `fetching it failed: ${reason}`);
  }
}

/** `origin` when there is one (what actions/checkout creates), else the first remote. */
async function pickRemote(repository: Repository): Promise<string | undefined> {
  const answer = await runGit(repository.cwd, ['remote']);
  const remotes = answer.stdout
    .toString('utf8')
    .split('\n')
    .filter((name) => name !== '');
  return remotes.includes('origin') ? 'origin' : remotes[0];
}

async function isShallow(repository: Repository): Promise<boolean> {
  const answer = await runGit(repository.cwd, ['rev-parse', '--is-shallow-repository']);
  return answer.stdout.toString('utf8').trim() === 'true';
}

function missingFromShallowClone(subject: string, reason: string): AureusError {
  return new AureusError(
    `the ${subject} is missing from this shallow clone, and ${reason}.`,
    'fetch enough history: set `fetch-depth: 0` (or a depth that reaches the base) in actions/checkout, or run `git fetch --unshallow`.',
  );
}
