import { SUBMODULE_MODE, SYMLINK_MODE } from '../git/blob-version.js';
import type { FileStatus } from '../model/change.js';
import type { ApiTree, ApiTreeEntry } from './api-trees.js';
import type { ListedFile } from './pull-request-files.js';

/** Mode written for a side whose tree entry is unknown (git's own "no file" mode). */
export const UNKNOWN_MODE = '000000';

/** One side of a listed file, located in the base or head tree. */
export interface PlannedSide {
  readonly path: string;
  /** Absent when the tree has no such path; `problem` then says why. */
  readonly entry?: ApiTreeEntry;
  readonly problem?: string;
}

export interface PlannedFile {
  readonly listed: ListedFile;
  readonly status: FileStatus;
  readonly oldPath?: string;
  readonly base?: PlannedSide;
  readonly head?: PlannedSide;
}

export interface Plan {
  readonly files: PlannedFile[];
  /** Files AUREUS could not interpret, one sentence each; each makes the change incomplete. */
  readonly notes: string[];
}

/**
 * Pairs each listed file with its base and head tree entries. GitHub's `status` decides
 * added / removed / renamed / copied; `modified` and `changed` are decided from the modes the
 * way git decides M and T (a T is a change of kind: file, symlink, submodule; an executable
 * bit alone is M), because GitHub's wording for mode changes is not documented.
 */
export function planFiles(listed: readonly ListedFile[], base: ApiTree, head: ApiTree): Plan {
  const files: PlannedFile[] = [];
  const notes: string[] = [];
  for (const file of listed) {
    const planned = planFile(file, base, head);
    if (typeof planned === 'string') notes.push(planned);
    else files.push(planned);
  }
  return { files, notes };
}

function planFile(file: ListedFile, base: ApiTree, head: ApiTree): PlannedFile | string {
  const path = file.filename;
  switch (file.status) {
    case 'added':
      return { listed: file, status: 'added', head: locate(head, 'head', path, file.sha) };
    case 'removed':
      return { listed: file, status: 'deleted', base: locate(base, 'base', path, null) };
    case 'renamed':
    case 'copied': {
      const from = file.previousFilename;
      if (from === undefined) {
        return `${path} is listed as ${file.status} without the path it came from; AUREUS cannot read its base version.`;
      }
      return {
        listed: file,
        status: file.status,
        oldPath: from,
        base: locate(base, 'base', from, null),
        head: locate(head, 'head', path, file.sha),
      };
    }
    case 'modified':
    case 'changed': {
      const baseSide = locate(base, 'base', path, null);
      const headSide = locate(head, 'head', path, file.sha);
      const status = kindOf(baseSide) === kindOf(headSide) ? 'modified' : 'type-changed';
      return { listed: file, status, base: baseSide, head: headSide };
    }
    default:
      return `${path} has GitHub status ${file.status}, which AUREUS cannot interpret.`;
  }
}

/**
 * The tree entry at `path`. For the head side the listing's blob id must be the tree's: if
 * not, the pull request moved between the two requests and the listing describes another head.
 */
function locate(
  tree: ApiTree,
  side: 'base' | 'head',
  path: string,
  listedSha: string | null,
): PlannedSide {
  const entry = tree.entries.get(path);
  if (entry === undefined) {
    const why = tree.truncated ? 'GitHub truncated the tree listing' : 'it is not there';
    return { path, problem: `the ${side} tree has no entry for it (${why})` };
  }
  if (listedSha !== null && listedSha !== entry.sha) {
    return {
      path,
      entry,
      problem: `the files API names blob ${listedSha} but the head tree holds ${entry.sha}, so the pull request changed while it was read`,
    };
  }
  return { path, entry };
}

/** git's notion of an entry's kind: a T status is a change between these. */
function kindOf(side: PlannedSide): string {
  const mode = side.entry?.mode;
  if (mode === SYMLINK_MODE || mode === SUBMODULE_MODE) return mode;
  return mode === undefined ? 'unknown' : 'file';
}
