import type { Change } from '../model/change.js';
import { checkedLimit } from './blob-limit.js';
import { changeContentId } from './change-content-id.js';
import type { ChangeRequest, ReadChangeOptions } from './change-request.js';
import { resolveTarget } from './change-target.js';
import { readChangedFiles } from './changed-files.js';
import { parseRawDiff, RAW_DIFF_OPTIONS } from './diff-entries.js';
import { runGit } from './git-runner.js';
import { openRepository } from './repository.js';

export type { ChangeRequest, ReadChangeOptions } from './change-request.js';

/**
 * The single `git diff` that lists a change: RAW_DIFF_OPTIONS, and
 * - `-M`: renames, at git's default threshold of 50 % similarity. A file at least half of
 *   which survives is `renamed` (with `similarity` and both versions, so pricing sees the move
 *   and the delta); below that it is a deletion plus an addition, priced in full.
 * - `-C`: copies, from sources modified in the same change. `--find-copies-harder` would scan
 *   every unmodified file in the repository as a possible source, which is slow on large
 *   trees; an undetected copy is priced as a new file, the conservative answer.
 */
const DIFF_OPTIONS = ['diff', ...RAW_DIFF_OPTIONS, '-M', '-C'] as const;

/**
 * Reads a change from the git repository at (or above) `repoDir`: one `git diff` for the
 * list of files, one `git cat-file --batch` for every blob, the working tree only for files
 * git has not hashed. Fails closed: any git failure (not a repository, a bad ref, a shallow
 * clone without the base) is an AureusError with exit code 2, never an empty change.
 */
export async function readChange(
  repoDir: string,
  request: ChangeRequest,
  options: ReadChangeOptions = {},
): Promise<Change> {
  const maxBytes = checkedLimit(options.maxBlobBytes);
  const repository = await openRepository(repoDir);
  const notes: string[] = [];
  const target = await resolveTarget(
    { repository, fetchMissing: options.fetchMissing ?? true, notes },
    request,
  );
  // `--` ends the revisions: nothing after the ids can be read as a path or an option.
  const diff = await runGit(repository.cwd, [...DIFF_OPTIONS, ...target.diffArgs, '--']);
  if (/rename detection was skipped|diff\.renameLimit/.test(diff.stderr)) {
    notes.push(
      'git skipped rename detection because too many files changed (diff.renameLimit); renames are counted as deletions plus additions.',
    );
  }
  const entries = parseRawDiff(diff.stdout);
  const read = await readChangedFiles(repository, entries, target.headIsWorkTree, maxBytes);
  return {
    source: target.source,
    baseSha: target.baseSha,
    headSha: target.headSha,
    files: read.files,
    // What the post-commit hook matches a commit against; a staged change only, as the index
    // is the one side a commit is made from (the working tree's files have no blob ids yet).
    ...(target.source === 'staged' ? { contentId: changeContentId(entries) } : {}),
    complete: read.complete,
    notes: [...notes, ...read.notes],
  };
}
