import type { ImportFact } from '../../model/facts.js';
import { type ResolveImport, resolvedFiles } from '../resolve/resolution.js';
import { DEFAULT_EMIT_SETTINGS, type EmitSettings, isEmitted } from './emit-settings.js';

/** An import between two files, and whether TypeScript's emit keeps it (ImportFact.keptWhen). */
export interface GraphImport extends ImportFact {
  /** Kept by the emit under the importing file's compiler settings: the import runs. */
  readonly emitted: boolean;
}

/** All imports from one file to another, folded into one edge. */
export interface ModuleEdge {
  readonly from: string;
  readonly to: string;
  /**
   * No import behind the edge survives TypeScript's emit (type-only, or bindings used only as
   * types): one emitted import makes the edge a runtime one.
   */
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
  readonly imports: readonly GraphImport[];
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
 * JSON, ignored files) cannot be part of a cycle between the files analysed. `emitSettings`
 * gives each importing file's compiler settings, which decide which of its imports the emit
 * keeps (TypeScript's defaults when not given).
 */
export function buildModuleGraph(
  files: ReadonlyMap<string, readonly ImportFact[]>,
  resolve: ResolveImport,
  emitSettings: (file: string) => EmitSettings = () => DEFAULT_EMIT_SETTINGS,
): ModuleGraph {
  const nodes = [...files.keys()].sort(compareStrings);
  const outgoing = new Map<string, ModuleEdge[]>();
  const edges: ModuleEdge[] = [];
  for (const from of nodes) {
    const importsByTarget = new Map<string, GraphImport[]>();
    let settings: EmitSettings | undefined;
    for (const fact of files.get(from) ?? []) {
      for (const to of resolvedFiles(resolve(from, fact.specifier))) {
        if (!files.has(to)) continue;
        settings ??= emitSettings(from);
        const edgeImport = { ...fact, emitted: isEmitted(fact, settings) };
        const list = importsByTarget.get(to);
        if (list === undefined) importsByTarget.set(to, [edgeImport]);
        else list.push(edgeImport);
      }
    }
    const targets = [...importsByTarget.keys()].sort(compareStrings);
    const fromEdges = targets.map((to) => foldImports(from, to, importsByTarget.get(to) ?? []));
    outgoing.set(from, fromEdges);
    edges.push(...fromEdges);
  }
  return { nodes, edges, outgoing };
}

function foldImports(from: string, to: string, imports: readonly GraphImport[]): ModuleEdge {
  const inSourceOrder = [...imports].sort((a, b) => a.line - b.line);
  return {
    from,
    to,
    typeOnly: inSourceOrder.every((fact) => !fact.emitted),
    dynamic: inSourceOrder.every((fact) => fact.dynamic),
    reexport: inSourceOrder.some((fact) => fact.reexport),
    imports: inSourceOrder,
  };
}
