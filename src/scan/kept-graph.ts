import { isDeepStrictEqual } from 'node:util';
import { detectLanguage } from '../analysis/detect-language.js';
import type { ModuleGraph } from '../analysis/graph/module-graph.js';
import type { ModuleLevelEdge, PolicyModules } from '../analysis/graph/policy-modules.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import type { UnreadImport } from './unread-imports.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/**
 * The import graph of one analysis and what follows from it alone, kept for the next analysis
 * of the same source under the same policy (a builder run's trees, action after action): its
 * modules, cycles, module edges, the imports that reach code the analysis does not read, and
 * the configs the graph could not read. Made by `graphKeeper`, handed to analyzeSnapshot.
 */
export interface GraphKeeper {
  last: KeptGraph | undefined;
}

export interface KeptGraph {
  readonly source: RepositorySource;
  readonly policy: Policy;
  /** The snapshot analysed, by path. */
  readonly files: ReadonlyMap<string, SnapshotFile>;
  readonly facts: ReadonlyMap<string, FileFacts>;
  readonly graph: ModuleGraph;
  readonly modules: PolicyModules;
  readonly cycles: readonly (readonly string[])[];
  readonly moduleEdges: readonly ModuleLevelEdge[];
  readonly unreadImports: readonly UnreadImport[];
  /** Ignored files the analysed code reaches whose own imports could not be read. */
  readonly unreadReached: readonly UnreadableFile[];
  /** The tsconfig files the emit settings could not read. */
  readonly emitUnreadable: readonly UnreadableFile[];
}

export function graphKeeper(): GraphKeeper {
  return { last: undefined };
}

/** The graph's only inputs a source file's contents can change: TypeScript's and JavaScript's. */
const GRAPH_BY_IMPORTS = new Set(['typescript', 'tsx', 'javascript']);
const REGULAR_FILE = /^100(644|755)$/;

/**
 * The kept graph when it is this snapshot's too, else undefined (then it is built again). It is
 * when nothing the graph reads changed: the same source and policy, the same paths with the same
 * modes (so the same resolution configs, links and ignored files, and the same answers), and
 * every file whose contents changed a regular TypeScript or JavaScript file the analysis reads
 * (not an ignored one, whose own imports the graph follows), whose facts have the same imports,
 * lines included, as before — and the same Java unit and Go build exclusion, which other
 * resolvers read. Anything else, a file that was or is now unreadable among them, rebuilds it.
 */
export function keptGraphFor(
  keeper: GraphKeeper | undefined,
  source: RepositorySource,
  policy: Policy,
  snapshot: readonly SnapshotFile[],
  facts: ReadonlyMap<string, FileFacts>,
): KeptGraph | undefined {
  const last = keeper?.last;
  if (last === undefined || last.source !== source || last.policy !== policy) return undefined;
  if (snapshot.length !== last.files.size) return undefined;
  for (const file of snapshot) {
    const before = last.files.get(file.path);
    if (before === undefined || before.mode !== file.mode) return undefined;
    if (before.blobSha === file.blobSha) continue;
    if (!REGULAR_FILE.test(file.mode)) return undefined;
    const language = detectLanguage(file.path);
    if (language === undefined || !GRAPH_BY_IMPORTS.has(language)) return undefined;
    const was = last.facts.get(file.path);
    const now = facts.get(file.path);
    if (was === undefined || now === undefined) return undefined;
    if (
      !isDeepStrictEqual(was.imports, now.imports) ||
      !isDeepStrictEqual(was.java, now.java) ||
      was.buildIgnored !== now.buildIgnored
    )
      return undefined;
  }
  return last;
}
