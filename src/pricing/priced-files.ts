import { compareStrings } from '../analysis/graph/module-graph.js';
import type { ChangedFile, FileVersion } from '../model/change.js';
import type { FileFacts } from '../model/facts.js';
import type { PathRules } from './path-rules.js';

/** One side of a changed file, with its facts when the caller could make them. */
export interface PricedSide {
  readonly version: FileVersion;
  readonly facts: FileFacts | undefined;
}

/**
 * A changed file as every per-file category reads it: its path and the two sides to compare.
 * For a rename, `base` is the version at the old path, so a pure move compares equal and only
 * the content delta costs. A copy has no base: it is new code.
 */
export interface PricedFile {
  readonly file: ChangedFile;
  readonly path: string;
  readonly base: PricedSide | null;
  readonly head: PricedSide | null;
}

export interface FactsBySide {
  readonly baseFacts: ReadonlyMap<string, FileFacts>;
  readonly headFacts: ReadonlyMap<string, FileFacts>;
}

/**
 * The files that are priced, sorted by path: every changed file whose path (the head path; the
 * deleted path for a deletion) is not under `paths.ignore`. Two kinds of file have no base, and
 * so enter priced code as new in every category (lines, abstractions, surfaces):
 * - a copy (git's `C`, the API's `copied`): its original is still there, so each copy is more
 *   code to keep. git's `-C` reports a copy of a file the same change touches or renames, with
 *   the original as its base; comparing with it would make copies free. Only a rename (the
 *   original gone from the head) is a move, priced at its content delta.
 * - a file renamed OUT of an ignored folder: its content was never priced (otherwise committing
 *   a file under `dist/` and moving it into `src/` would cost nothing).
 */
export function pricedFiles(
  files: readonly ChangedFile[],
  facts: FactsBySide,
  rules: PathRules,
): PricedFile[] {
  return files
    .filter((file) => !rules.isIgnored(file.path))
    .map((file) => ({
      file,
      path: file.path,
      base:
        file.base === undefined || file.status === 'copied' || rules.isIgnored(file.base.path)
          ? null
          : { version: file.base, facts: facts.baseFacts.get(file.base.path) },
      head:
        file.head === undefined
          ? null
          : { version: file.head, facts: facts.headFacts.get(file.head.path) },
    }))
    .sort((a, b) => compareStrings(a.path, b.path));
}
