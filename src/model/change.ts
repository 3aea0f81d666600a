/**
 * A change: what a diff did to a repository, with the contents the core needs to judge it.
 * The same shape comes from git (staged, working tree, range, commit) and from the GitHub API.
 */

/** How a path changed. A rename or copy keeps the path it came from in `oldPath`. */
export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed';

/**
 * What a blob is. Only `text` carries contents. `binary` follows git's rule (a NUL byte in the
 * first 8000 bytes), except for source in a language AUREUS reads whose bytes decode exactly
 * (UTF-8, or UTF-16 after its byte order mark): that is text, as its parser reads it; `symlink`
 * (mode 120000) is never followed; `submodule` (mode 160000) is a commit pointer; `too-large` is
 * a blob over its read limit (1 MiB; 16 MiB for a lockfile AUREUS reads), reported with its size rather
 * than read; `unreadable` could not be read at all (missing object, file changed while read),
 * which makes the change incomplete.
 */
export type BlobKind = 'text' | 'binary' | 'symlink' | 'submodule' | 'too-large' | 'unreadable';

/** One side (base or head) of a changed file. */
export interface FileVersion {
  readonly path: string;
  /** Git object id of the blob (for a submodule, the commit it points at). Keys the facts cache. */
  readonly blobSha: string;
  /** Git file mode: 100644, 100755, 120000 (symlink), 160000 (submodule). */
  readonly mode: string;
  readonly kind: BlobKind;
  /** Size in bytes as stored in git. */
  readonly size: number;
  /** The decoded text, present only when kind is `text`. Invalid UTF-8 bytes appear as U+FFFD. */
  readonly text?: string;
  /**
   * False when the text is not these bytes read as UTF-8 (invalid UTF-8 decoded lossily, or
   * source decoded as UTF-16): written back, it would not be the same blob.
   */
  readonly validUtf8?: boolean;
  /**
   * Set on text that git's own rule calls binary (source with a NUL byte among its first 8000,
   * which UTF-16 mostly has): git and GitHub show no line diff for it, and GitHub lists it with
   * no patch and zero line counts.
   */
  readonly binaryToGit?: true;
  /**
   * Set on a Git LFS pointer (kind `too-large`, `size` the size the pointer records): git holds
   * a pointer and the contents live in LFS storage, which AUREUS does not read, so the file is
   * judged as one whose contents are over the read limit.
   */
  readonly lfsPointer?: true;
}

export interface ChangedFile {
  readonly status: FileStatus;
  /** Path after the change (the deleted path for a deletion). */
  readonly path: string;
  /** For renames and copies: where it came from. */
  readonly oldPath?: string;
  /** For renames and copies: git's similarity index, 0–100. */
  readonly similarity?: number;
  /** Absent for an added file. */
  readonly base?: FileVersion;
  /** Absent for a deleted file. */
  readonly head?: FileVersion;
}

/** `repository`: no change at all, the whole working tree judged against the committed baseline. */
export type ChangeSourceKind = 'staged' | 'worktree' | 'range' | 'commit' | 'github' | 'repository';

export interface Change {
  readonly source: ChangeSourceKind;
  /**
   * Commit the change is based on, whose policy judges it: for a three-dot range, the merge base
   * (the diff starts there). Null in a repository with no commits.
   */
  readonly baseSha: string | null;
  /** Commit of the head side; null for staged and working-tree changes. */
  readonly headSha: string | null;
  readonly files: readonly ChangedFile[];
  /** What a staged change writes and removes, as one id (git/change-content-id). */
  readonly contentId?: string;
  /**
   * False when anything could not be read (truncated API answer, a missing blob, an unmerged
   * path). A file over its read limit is `too-large`, with a note, and what that means is the
   * core's to judge, by the base policy: a source file, manifest or lockfile whose contents
   * decide the verdict makes the Report incomplete (PricedChange.unmeasured); an image or a data
   * file is priced by its size. An incomplete change is never a pass.
   */
  readonly complete: boolean;
  /** Why the change is incomplete, or other facts a reader should know (one sentence each). */
  readonly notes: readonly string[];
}
