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
 * For a rename or copy, `base` is the version at the old path, so a pure move compares equal
 * and only the content delta costs.
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
 * deleted path for a deletion) is not under `paths.ignore`. A file renamed or copied OUT of an
 * ignored folder has no base: its content was never priced, so it enters priced code as new
 * (otherwise committing a file under `dist/` and moving it into `src/` would cost nothing).
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
        file.base === undefined || rules.isIgnored(file.base.path)
          ? null
          : { version: file.base, facts: facts.baseFacts.get(file.base.path) },
      head:
        file.head === undefined
          ? null
          : { version: file.head, facts: facts.headFacts.get(file.head.path) },
    }))
    .sort((a, b) => compareStrings(a.path, b.path));
}
