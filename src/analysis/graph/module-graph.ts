import type { ImportFact } from '../../model/facts.js';
import type { ResolveImport } from '../resolve/resolution.js';

/** All imports from one file to another, folded into one edge. */
export interface ModuleEdge {
  readonly from: string;
  readonly to: string;
  /** Every import behind the edge is type-only: one runtime import makes the edge a runtime one. */
  readonly typeOnly: boolean;
  /** Every import behind the edge is an `import()`/`require()`: one static import makes it static. */
  readonly dynamic: boolean;
  /** At least one import behind the edge re-exports (`export … from`). */
  readonly reexport: boolean;
  /**
   * The imports behind the edge, in source order. The flags above summarise them; filters that
   * combine flags (runtime *and* static) must look at the imports themselves, because a file may
   * import another once as a static type and once as a dynamic value.
   */
  readonly imports: readonly ImportFact[];
}

/** Files and the imports between them. Everything is sorted, so equal inputs give equal graphs. */
export interface ModuleGraph {
  /** Every file given, sorted. */
  readonly nodes: readonly string[];
  /** Sorted by `from`, then `to`. */
  readonly edges: readonly ModuleEdge[];
  /** Each node's outgoing edges, sorted by `to`; every node has an entry, maybe empty. */
  readonly outgoing: ReadonlyMap<string, readonly ModuleEdge[]>;
}

/** Code-unit order: the same in every locale, unlike `localeCompare`. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/**
 * Builds the file-level import graph. Only imports that resolve to one of the given files become
 * edges: packages, builtins, unresolved specifiers and files outside the set (build output,
 * JSON, ignored files) cannot be part of a cycle between the files analysed.
 */
export function buildModuleGraph(
  files: ReadonlyMap<string, readonly ImportFact[]>,
  resolve: ResolveImport,
): ModuleGraph {
  const nodes = [...files.keys()].sort(compareStrings);
  const outgoing = new Map<string, ModuleEdge[]>();
  const edges: ModuleEdge[] = [];
  for (const from of nodes) {
    const importsByTarget = new Map<string, ImportFact[]>();
    for (const fact of files.get(from) ?? []) {
      const target = resolve(from, fact.specifier);
      if (target.kind !== 'file' || !files.has(target.path)) continue;
      const list = importsByTarget.get(target.path);
      if (list === undefined) importsByTarget.set(target.path, [fact]);
      else list.push(fact);
    }
    const targets = [...importsByTarget.keys()].sort(compareStrings);
    const fromEdges = targets.map((to) => foldImports(from, to, importsByTarget.get(to) ?? []));
    outgoing.set(from, fromEdges);
    edges.push(...fromEdges);
  }
  return { nodes, edges, outgoing };
}

function foldImports(from: string, to: string, imports: readonly ImportFact[]): ModuleEdge {
  const inSourceOrder = [...imports].sort((a, b) => a.line - b.line);
  return {
    from,
    to,
    typeOnly: inSourceOrder.every((fact) => fact.typeOnly),
    dynamic: inSourceOrder.every((fact) => fact.dynamic),
    reexport: inSourceOrder.some((fact) => fact.reexport),
    imports: inSourceOrder,
  };
}
