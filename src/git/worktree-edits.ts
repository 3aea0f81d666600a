import { AureusError } from '../model/errors.js';
import { checkedLimit } from './blob-limit.js';
import { parseRawDiff, RAW_DIFF_OPTIONS } from './diff-entries.js';
import { runGit } from './git-runner.js';
import { readSides, type Side, type VersionRead } from './read-sides.js';
import { openRepository, requireWorkTree } from './repository.js';

/** A tracked file whose working-tree state differs from the index. */
export interface WorktreeEdit {
  readonly path: string;
  /** What the working tree holds, as git would store it; undefined where the file is deleted. */
  readonly head?: VersionRead;
}

/**
 * `git diff` with no revision compares the index with the working tree: nothing to look up in
 * history, nothing to read from the object store. Renames cannot show here (a path new to the
 * index is staged, not edited).
 */
const DIFF_OPTIONS = ['diff', ...RAW_DIFF_OPTIONS, '--no-renames'] as const;

/**
 * The tracked files edited in the working tree since the index, each read from the disk as git
 * would hash it (never following a link, never leaving the working tree): with `git ls-files -s`
 * this is the working tree's snapshot. Unlike a change (readChange), no earlier version is
 * read: a snapshot needs only what the files hold now.
 */
export async function readWorktreeEdits(
  repoDir: string,
  options: { readonly maxBlobBytes?: number } = {},
): Promise<WorktreeEdit[]> {
  const maxBytes = checkedLimit(options.maxBlobBytes);
  const repository = await openRepository(repoDir);
  requireWorkTree(repository, 'working-tree');
  const diff = await runGit(repository.cwd, [...DIFF_OPTIONS, '--']);
  const edits: { path: string; side?: Side }[] = [];
  for (const entry of parseRawDiff(diff.stdout)) {
    const path = entry.dstPath;
    if (entry.letter === 'D') {
      edits.push({ path: path.text });
    } else if (entry.letter === 'M' || entry.letter === 'T' || entry.letter === 'A') {
      // Always the disk: git hashes a working-tree file only when it matches the index.
      edits.push({
        path: path.text,
        side: { path, mode: entry.dstMode, sha: '', fromWorkTree: true },
      });
    } else {
      throw unexpectedStatus(path.text, entry.letter);
    }
  }
  const sides = edits.flatMap(({ side }) => (side === undefined ? [] : [side]));
  const versions = await readSides(repository, sides, () => maxBytes);
  return edits.map(({ path, side }) => {
    const head = side === undefined ? undefined : versions.get(side);
    return head === undefined ? { path } : { path, head };
  });
}

function unexpectedStatus(path: string, letter: string): AureusError {
  if (letter === 'U') {
    return new AureusError(
      `${path} is unmerged in the index, so it has no single version to read.`,
      'finish or abort the merge (git merge --continue / --abort), then run AUREUS again.',
    );
  }
  return new AureusError(
    `git diff reported status ${letter} for ${path}, which AUREUS cannot interpret.`,
    'report this with your git version (git --version).',
  );
}
