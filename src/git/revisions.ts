import { AureusError } from '../model/errors.js';
import { runGit } from './git-runner.js';
import type { Repository } from './repository.js';

/**
 * Refuses a revision git could read as an option (`--output=…`) or that cannot be one
 * line of input. Revisions come from users, payloads and config: treat them as data.
 */
export function assertSafeRevision(revision: string, what: string): void {
  if (revision === '' || revision.startsWith('-') || /[\0\n\r]/.test(revision)) {
    throw new AureusError(
      `the ${what} revision ${JSON.stringify(revision)} is not a valid git revision.`,
      'pass a branch, tag or commit id; it may not be empty, start with "-" or contain a line break.',
    );
  }
}

/** The commit `revision` names, or null when the repository does not have it. */
export async function findCommit(repository: Repository, revision: string): Promise<string | null> {
  const answer = await runGit(
    repository.cwd,
    ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`],
    { okExitCodes: [0, 1] },
  );
  const sha = answer.stdout.toString('utf8').trim();
  return answer.exitCode === 0 && sha !== '' ? sha : null;
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * The commits `revisions` name, in order (null for each the repository does not have), from one
 * git process: `cat-file --batch-check` resolves any revision rev-parse does, one per line, and
 * answers `<revision> missing` for what names no commit. Revisions pass assertSafeRevision first.
 */
export async function findCommits(
  repository: Repository,
  revisions: readonly string[],
): Promise<(string | null)[]> {
  if (revisions.length < 2) {
    return Promise.all(revisions.map((revision) => findCommit(repository, revision)));
  }
  const input = revisions.map((revision) => `${revision}^{commit}\n`).join('');
  const answer = await runGit(repository.cwd, ['cat-file', '--batch-check=%(objectname)'], {
    input,
  });
  const lines = answer.stdout.toString('utf8').split('\n').slice(0, -1);
  if (lines.length !== revisions.length) {
    throw new AureusError(
      `git cat-file answered ${lines.length} of ${revisions.length} revisions.`,
      'run "git fsck" to check the repository, then try again.',
    );
  }
  return lines.map((line) => (OBJECT_ID.test(line) ? line : null));
}

/**
 * The first parent written in the commit object itself, or null for a root commit.
 * Read from the raw object on purpose: in a shallow clone git grafts the boundary commit as
 * parentless, and trusting that would turn "parent not fetched" into "every file added".
 */
export async function firstParentOf(
  repository: Repository,
  commit: string,
): Promise<string | null> {
  const answer = await runGit(repository.cwd, ['cat-file', 'commit', commit]);
  const text = answer.stdout.toString('latin1');
  const headerEnd = text.indexOf('\n\n');
  const header = headerEnd === -1 ? text : text.slice(0, headerEnd);
  const parent = /^parent ([0-9a-f]+)$/m.exec(header);
  return parent?.[1] ?? null;
}

/**
 * Most bytes of a commit object read to find its first parent: the parents come right after the
 * tree, so a message of any length past this leaves them readable; headers past it fail closed.
 */
const COMMIT_READ_LIMIT = 1024 * 1024;

/**
 * The commit `revision` names and its first parent (as firstParentOf reads it), from one git
 * process (`cat-file --batch`, which resolves the revision and prints the object); null when
 * the repository does not have it.
 */
export async function findCommitAndParent(
  repository: Repository,
  revision: string,
): Promise<{ readonly commit: string; readonly parent: string | null } | null> {
  const answer = await runGit(repository.cwd, ['cat-file', '--batch'], {
    input: `${revision}^{commit}\n`,
    maxStdoutBytes: COMMIT_READ_LIMIT,
  });
  const text = answer.stdout.toString('latin1');
  const firstLine = text.indexOf('\n');
  const [commit = '', type = ''] = text.slice(0, firstLine === -1 ? 0 : firstLine).split(' ');
  if (!OBJECT_ID.test(commit) || type !== 'commit') return null;
  const headerEnd = text.indexOf('\n\n', firstLine);
  if (headerEnd === -1) {
    throw new AureusError(
      `the header of commit ${commit} is not within the first ${COMMIT_READ_LIMIT} bytes AUREUS reads.`,
      'run "git fsck" to check the repository; a commit header this large is not one git writes.',
    );
  }
  const parent = /^parent ([0-9a-f]+)$/m.exec(text.slice(firstLine + 1, headerEnd));
  return { commit, parent: parent?.[1] ?? null };
}

/** The best common ancestor of two commits, or null when git finds none in the local history. */
export async function findMergeBase(
  repository: Repository,
  base: string,
  head: string,
): Promise<string | null> {
  const answer = await runGit(repository.cwd, ['merge-base', base, head], { okExitCodes: [0, 1] });
  const sha = answer.stdout.toString('utf8').trim().split('\n')[0] ?? '';
  return answer.exitCode === 0 && sha !== '' ? sha : null;
}
