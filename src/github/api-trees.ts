import { AureusError } from '../model/errors.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** One blob or submodule of a tree, as `git ls-tree -r -l` would show it. */
export interface ApiTreeEntry {
  readonly mode: string;
  /** `blob`, or `commit` for a submodule. */
  readonly type: string;
  readonly sha: string;
  /** Blob size in bytes; absent for submodules. */
  readonly size?: number;
}

export interface ApiTree {
  /** By full path; subtrees themselves are left out (a diff never lists a directory). */
  readonly entries: ReadonlyMap<string, ApiTreeEntry>;
  /** GitHub cut the listing (over 100,000 entries or 7 MB): paths may be missing. */
  readonly truncated: boolean;
}

/**
 * The whole tree of a commit in one request (`recursive`): the modes say what is a symlink,
 * a submodule or executable, and the sizes say which blobs are over the read limit before any
 * of them is downloaded. `treeish` may be a tree id or a commit id; GitHub resolves both.
 *
 * GitHub sends paths as UTF-8 strings, so a name that is not UTF-8 arrives with its bad bytes
 * replaced, and two names that differ only in those bytes arrive as one (git keeps them apart,
 * see model/path-bytes.ts). Keeping either would judge one file as the other, and a new finding
 * could read as a baseline one: the tree is refused instead.
 */
export async function readApiTree(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  treeish: string,
): Promise<ApiTree> {
  const { data } = await client.rest.git.getTree({
    owner: repository.owner,
    repo: repository.repo,
    tree_sha: treeish,
    recursive: 'true',
  });
  const entries = new Map<string, ApiTreeEntry>();
  for (const item of data.tree) {
    const { path, mode, type, sha, size } = item;
    if (path === undefined || mode === undefined || type === undefined || sha === undefined) {
      continue;
    }
    if (type === 'tree') continue;
    if (entries.has(path)) throw collidingPaths(path, treeish);
    entries.set(path, { mode, type, sha, ...(typeof size === 'number' ? { size } : {}) });
  }
  return { entries, truncated: data.truncated };
}

function collidingPaths(path: string, treeish: string): AureusError {
  return new AureusError(
    `GitHub lists two files of ${treeish} under one name, ${path}: their names differ only in bytes that are not UTF-8, which GitHub's API cannot show apart.`,
    'rename them to UTF-8 names (git mv), or check the change where git reads the names byte for byte (the Action or `aureus check`).',
  );
}

/** Reads the tree of a commit (or a tree id), recursively. */
export type TreeReader = (treeish: string) => Promise<ApiTree>;

/**
 * A tree reader that asks GitHub once per treeish for its own lifetime: a check reads the base
 * and head trees for the change, the policy and both analyses. Make one per check, so that a
 * long-running App does not keep every tree it ever read. A failed read is not kept.
 */
export function memoizedTreeReader(
  client: GitHubClient,
  repository: RepositoryCoordinates,
): TreeReader {
  const reads = new Map<string, Promise<ApiTree>>();
  return (treeish) => {
    const known = reads.get(treeish);
    if (known !== undefined) return known;
    const read = readApiTree(client, repository, treeish);
    reads.set(treeish, read);
    read.catch(() => reads.delete(treeish));
    return read;
  };
}
