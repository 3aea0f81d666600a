/** Which change to read from a repository. */
export type ChangeRequest =
  /** The index vs HEAD (vs the empty tree when there is no commit yet): what `git commit` would record. */
  | { kind: 'staged' }
  /** Tracked files in the working tree vs HEAD. */
  | { kind: 'worktree' }
  /** base..head; with threeDot, merge-base(base, head)..head, as a pull request shows it. */
  | { kind: 'range'; base: string; head: string; threeDot?: boolean }
  /** A commit vs its first parent (a root commit: vs the empty tree). */
  | { kind: 'commit'; ref: string };

export interface ReadChangeOptions {
  /** Blobs larger than this are reported as `too-large` and not read. Default 1 MiB; a lockfile AUREUS reads has 16 MiB at least (readLimitOf). */
  maxBlobBytes?: number;
  /** Whether a shallow clone may fetch a missing base from its remote. Default true. */
  fetchMissing?: boolean;
}
