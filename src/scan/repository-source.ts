import type { BlobSizes } from '../git/index.js';
import type { FileVersion } from '../model/change.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/** A blob as a source read it, and why not when its version is `unreadable`. */
export interface SourceBlob {
  readonly version: FileVersion;
  readonly problem?: string;
}

/** A file whose bytes could not be had: the side it belongs to is judged incompletely. */
export interface UnreadableFile {
  readonly path: string;
  readonly problem: string;
  /**
   * An ignored file analysed code imports, read only for its own imports: what it hides is
   * ignored code, which matters to a change that could have changed it (judge-change.ts).
   */
  readonly reached?: true;
}

/**
 * What TypeScript's module resolution reads for one snapshot of a repository, as plain data (a
 * worker thread can resolve with it: see resolution-host.ts for the file access it stands for).
 */
export interface ResolutionFiles {
  /** Absolute and `/`-separated: the folder the snapshot's paths are relative to. */
  readonly rootDir: string;
  /** Every file of the snapshot, relative to the root. */
  readonly paths: readonly string[];
  /** The texts of the files TypeScript reads (tsconfig, jsconfig, package.json), by path. */
  readonly texts: ReadonlyMap<string, string>;
  /**
   * Whether the root is a clone on this machine's disk: installed packages under node_modules
   * are then read from it, within the repository and never through a link it commits
   * (contained-file.ts), so a listed file the snapshot holds no text for (a symbolic link) is
   * missing there too. False over the API: nothing exists beyond the snapshot.
   */
  readonly onDisk: boolean;
  /**
   * The repository files whose texts the answers depend on: every tsconfig, jsconfig and
   * package.json, and the files their `extends` name, whatever those are called.
   */
  readonly configs: readonly string[];
  /**
   * Resolution inputs (tsconfig, package.json) that could not be read. Answers computed without
   * them may be wrong, so they are not cached and the side is incomplete.
   */
  readonly unreadable: readonly UnreadableFile[];
}

/**
 * Where a check reads a repository's committed files: a local clone through git
 * (`gitRepositorySource`) or the GitHub REST API with no checkout (`apiRepositorySource`).
 * The policy at the base, the whole-repository analysis and import resolution go through this
 * port alone, so both sources reach the same Report by the same code.
 */
export interface RepositorySource {
  /**
   * AUREUS's cache folder (facts, blob texts, parsed policies, resolutions), never inside a
   * checkout: the user's cache folder locally, the App's data folder over the API (cache-dir.ts).
   * Undefined when the run goes without caches.
   */
  readonly cacheDir: string | undefined;
  /**
   * Whose import answers these are, beyond the snapshot they are keyed by: a clone's answers
   * depend on what its disk holds besides its tracked files (installed packages), so each clone
   * keeps its own and no repository reads another's; over the API the snapshot is everything.
   */
  readonly resolutionScope: string;
  /** Every file of a commit (blobs and submodules) with its blob id, mode and size; by path. */
  listFiles(commit: string): Promise<SnapshotFile[]>;
  /**
   * One blob per file, in order, classified by the same `describeBlob`. A blob that cannot be
   * had is `unreadable` with its problem (git throws instead: a clone lacking it is broken).
   * `onSizes`, when the source learns the sizes before the contents (git does), is told them
   * then; a source whose listing already gives sizes need not call it.
   */
  readBlobs(files: readonly SnapshotFile[], onSizes?: BlobSizes): Promise<SourceBlob[]>;
  /** The files TypeScript's resolver sees for a snapshot. Loads TypeScript: only on a cache miss. */
  resolutionFiles(snapshot: readonly SnapshotFile[]): Promise<ResolutionFiles>;
}
