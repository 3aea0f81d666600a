import { createHash } from 'node:crypto';
import { type DiffEntry, parseRawDiff, RAW_DIFF_OPTIONS } from './diff-entries.js';
import { runGit } from './git-runner.js';
import { openRepository } from './repository.js';
import { firstParentOf } from './revisions.js';

/**
 * What a change makes of its base, as one id: every path it writes with its new mode and blob,
 * every path it removes. A staged change and the commit made from it have the same id when the
 * commit holds exactly what was staged, so a hook's ledger entry can name the commit it became
 * without writing a tree (which would take the index lock a running `git commit` holds).
 * A rename counts as a removal and an addition, so git's rename detection cannot change the id.
 */
export function changeContentId(entries: readonly DiffEntry[]): string {
  const lines: string[] = [];
  for (const entry of entries) {
    // A copy leaves its source in place (a modified source has its own entry).
    if (entry.letter === 'D' || entry.letter === 'R')
      lines.push(`-${entry.srcPath.bytes.toString('hex')}`);
    if (entry.letter !== 'D')
      lines.push(`+${entry.dstPath.bytes.toString('hex')} ${entry.dstMode} ${entry.dstSha}`);
  }
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex');
}

/** A commit's first parent (null for a root commit) and the content id of its change. */
export interface CommitContent {
  readonly commit: string;
  readonly parent: string | null;
  readonly contentId: string;
}

/**
 * The content id of `commit` against `base` (its first parent when omitted; the empty tree for
 * a root commit): what `git commit` made of the index it was given.
 */
export async function commitContent(
  root: string,
  commit: string,
  base?: string | null,
): Promise<CommitContent> {
  const repository = await openRepository(root);
  const parent = base === undefined ? await firstParentOf(repository, commit) : base;
  const diff = await runGit(repository.cwd, [
    'diff',
    ...RAW_DIFF_OPTIONS,
    '--no-renames',
    parent ?? repository.emptyTree,
    commit,
    '--',
  ]);
  return { commit, parent, contentId: changeContentId(parseRawDiff(diff.stdout)) };
}
