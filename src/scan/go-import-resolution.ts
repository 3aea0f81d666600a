import { detectLanguage } from '../analysis/detect-language.js';
import { goConfigProblem, goImportResolver } from '../analysis/resolve/go-imports.js';
import { type ResolveImport, resolvedFiles } from '../analysis/resolve/resolution.js';
import type { FileFacts } from '../model/facts.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import { readConfigTexts } from './snapshot-resolution-files.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

const GO_CONFIGS = /(^|\/)go\.(mod|work)$/;

/** What Go's resolution reads of a snapshot: its paths, and its go.mod and go.work files. */
export interface GoConfigs {
  readonly paths: readonly string[];
  readonly texts: ReadonlyMap<string, string>;
  readonly unreadable: readonly UnreadableFile[];
}

export function isGoFile(path: string): boolean {
  return detectLanguage(path) === 'go';
}

/**
 * The snapshot's go.mod and go.work files, by which its Go imports resolve, read by blob from
 * the snapshot (a symbolic link is not followed). One that cannot be read leaves the analysis
 * incomplete: the modules it declares would be missing and their imports look external. So does
 * one the go command would refuse (goConfigProblem), such as a go.mod with no `module` line.
 * Undefined when the snapshot has no Go file, so nothing is read.
 */
export async function readGoConfigs(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
): Promise<GoConfigs | undefined> {
  if (!snapshot.some((file) => isGoFile(file.path))) return undefined;
  const { texts, unreadable } = await readConfigTexts(
    source,
    snapshot.filter((file) => GO_CONFIGS.test(file.path)),
    (kind) => `it is not text (${kind})`,
    goConfigProblem,
  );
  return { paths: snapshot.map((file) => file.path), texts, unreadable };
}

/**
 * The most edges Go's package imports may add to the graph. An import is an edge to each file
 * of the package it names, so importers × package files grows as the square of a package's
 * size: 1,000 files importing a package of 1,000 files are a million edges (~700 MB analysed).
 * Past the limit the graph would be too large to hold, so it gets none of them and the
 * analysis is incomplete, never a pass on a graph missing its cycles.
 */
export const GO_PACKAGE_EDGE_LIMIT = 500_000;

/** Go's answers for the graph, and what makes it incomplete. */
export interface GoResolution {
  readonly resolve: ResolveImport;
  readonly unreadable: readonly UnreadableFile[];
}

/**
 * Go's import answers, once the files' facts tell which are in no build (`buildIgnored`) and
 * how many edges their package imports make (GO_PACKAGE_EDGE_LIMIT).
 */
export function goResolver(
  go: GoConfigs,
  facts: ReadonlyMap<string, FileFacts>,
  limit = GO_PACKAGE_EDGE_LIMIT,
): GoResolution {
  const built = go.paths.filter((path) => facts.get(path)?.buildIgnored !== true);
  const resolve = goImportResolver(built, go.texts);
  let edges = 0;
  for (const [path, fileFacts] of facts) {
    if (!isGoFile(path)) continue;
    const reached = new Set<string>();
    for (const { specifier } of fileFacts.imports)
      for (const target of resolvedFiles(resolve(path, specifier))) reached.add(target);
    edges += reached.size;
    if (edges > limit)
      return { resolve: withoutPackages(resolve), unreadable: [overLimit(path, limit)] };
  }
  return { resolve, unreadable: [] };
}

function withoutPackages(resolve: ResolveImport): ResolveImport {
  return (from, specifier) => {
    const answer = resolve(from, specifier);
    return answer.kind === 'package' ? { kind: 'unresolved' } : answer;
  };
}

function overLimit(path: string, limit: number): UnreadableFile {
  return {
    path,
    problem: `its imports take the Go import graph past ${limit.toLocaleString('en-US')} edges (an import is an edge to each file of the package it names), more than AUREUS holds, so the graph has none of Go's package imports; list generated or vendored packages under paths.ignore in the policy, or split the largest packages`,
  };
}
