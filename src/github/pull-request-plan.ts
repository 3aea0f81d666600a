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

/** How a note names the listing when it disagrees with the head tree, and what that means. */
export interface PlanListing {
  /** The API that listed the files, e.g. `the files API`. */
  readonly name: string;
  /** Why the blob ids can differ, after "so", e.g. `the pull request changed while it was read`. */
  readonly mismatch: string;
}

/** A pull request's listing: `pulls.listFiles`, of a head that may move while it is read. */
export const PULL_REQUEST_LISTING: PlanListing = {
  name: 'the files API',
  mismatch: 'the pull request changed while it was read',
};

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
export function planFiles(
  listed: readonly ListedFile[],
  base: ApiTree,
  head: ApiTree,
  listing: PlanListing = PULL_REQUEST_LISTING,
): Plan {
  const files: PlannedFile[] = [];
  const notes: string[] = [];
  for (const file of listed) {
    const planned = planFile(file, { base, head, listing });
    if (typeof planned === 'string') notes.push(planned);
    else files.push(planned);
  }
  return { files, notes };
}

interface PlanContext {
  readonly base: ApiTree;
  readonly head: ApiTree;
  readonly listing: PlanListing;
}

function planFile(file: ListedFile, context: PlanContext): PlannedFile | string {
  const path = file.filename;
  const inBase = (at: string) => locate(context, 'base', at, null);
  const inHead = (at: string) => locate(context, 'head', at, file.sha);
  switch (file.status) {
    case 'added':
      return { listed: file, status: 'added', head: inHead(path) };
    case 'removed':
      return { listed: file, status: 'deleted', base: inBase(path) };
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
        base: inBase(from),
        head: inHead(path),
      };
    }
    case 'modified':
    case 'changed': {
      const baseSide = inBase(path);
      const headSide = inHead(path);
      const status = kindOf(baseSide) === kindOf(headSide) ? 'modified' : 'type-changed';
      return { listed: file, status, base: baseSide, head: headSide };
    }
    default:
      return `${path} has GitHub status ${file.status}, which AUREUS cannot interpret.`;
  }
}

/**
 * The tree entry at `path`. For the head side the listing's blob id must be the tree's: if
 * not, the listing describes another head (for a pull request: it moved between the requests).
 */
function locate(
  context: PlanContext,
  side: 'base' | 'head',
  path: string,
  listedSha: string | null,
): PlannedSide {
  const tree = context[side];
  const entry = tree.entries.get(path);
  if (entry === undefined) {
    const why = tree.truncated ? 'GitHub truncated the tree listing' : 'it is not there';
    return { path, problem: `the ${side} tree has no entry for it (${why})` };
  }
  if (listedSha !== null && listedSha !== entry.sha) {
    return {
      path,
      entry,
      problem: `${context.listing.name} names blob ${listedSha} but the head tree holds ${entry.sha}, so ${context.listing.mismatch}`,
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
