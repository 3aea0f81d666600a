import picomatch from 'picomatch';
import { compareStrings, type ModuleGraph } from './module-graph.js';

/** The core's files sorted into policy modules (the unit of `budgets.core_modules`). */
export interface PolicyModules {
  /** Each core file's module; files outside every core glob are absent. */
  readonly moduleOf: ReadonlyMap<string, string>;
  /** The modules that hold at least one file, sorted. */
  readonly modules: readonly string[];
}

/** Imports from one module's files to another's. */
export interface ModuleLevelEdge {
  readonly from: string;
  readonly to: string;
  /** Number of file-level edges between the two modules. */
  readonly count: number;
  /** Every one of those file edges is type-only. */
  readonly typeOnly: boolean;
}

/**
 * Sorts core files into modules by the glob that takes them in (the first that matches, in
 * policy order). The glob's fixed prefix decides the module:
 * - a prefix of one folder or none (`src/**`, `packages/*\/src/**`, `**`) is a source root: the
 *   folders directly under it are the modules (`src/a`, `packages/ui`), and files directly in
 *   it form a module named after it (`src`; `.` for the repository root);
 * - a longer prefix (`src/model/**`) names one module, the prefix itself (`src/model`), so a
 *   policy can list its modules one glob each.
 *
 * picomatch does the matching and finds the prefix (`scan().base`): glob syntax has enough
 * corners (braces, extglobs, escapes) that a hand-written prefix split would get some wrong.
 * `dot: true` because AUREUS prices every tracked file, dot-folders included.
 */
export function groupModules(paths: Iterable<string>, coreGlobs: readonly string[]): PolicyModules {
  const roots = coreGlobs.map((glob) => ({
    matches: picomatch(glob, { dot: true }),
    prefix: fixedPrefix(glob),
  }));
  const moduleOf = new Map<string, string>();
  for (const path of [...paths].sort(compareStrings)) {
    const root = roots.find((candidate) => candidate.matches(path));
    if (root !== undefined) moduleOf.set(path, moduleFor(path, root.prefix));
  }
  const modules = [...new Set(moduleOf.values())].sort(compareStrings);
  return { moduleOf, modules };
}

/**
 * A glob that takes the files groupModules puts in `module`, those to come included: the files
 * directly in a source root (`src/*`, `*` for the repository root), or a module's folder.
 */
export function moduleGlob(module: string, coreGlobs: readonly string[]): string {
  const sourceRoot = coreGlobs
    .map(fixedPrefix)
    .some((prefix) => prefix.length <= 1 && (prefix[0] ?? '.') === module);
  if (!sourceRoot) return `${module}/**`;
  return module === '.' ? '*' : `${module}/*`;
}

/** The glob's leading folders that hold no glob syntax, as segments. */
function fixedPrefix(glob: string): readonly string[] {
  const scanned = picomatch.scan(glob);
  // A glob without wildcards names one file or folder; its folder is the fixed part.
  const base = scanned.isGlob ? scanned.base : scanned.base.split('/').slice(0, -1).join('/');
  return base.split('/').filter((segment) => segment !== '' && segment !== '.');
}

function moduleFor(path: string, prefix: readonly string[]): string {
  if (prefix.length >= 2) return prefix.join('/');
  const folders = path.split('/').slice(0, -1);
  const depth = prefix.length + 1;
  if (folders.length < depth) return prefix.length === 0 ? '.' : prefix.join('/');
  return folders.slice(0, depth).join('/');
}

/**
 * The module-level graph: file edges whose ends lie in two different modules, counted per
 * (from, to) pair. Imports inside a module and files outside every module are left out.
 */
export function moduleEdges(graph: ModuleGraph, modules: PolicyModules): ModuleLevelEdge[] {
  const pairs = new Map<string, { from: string; to: string; count: number; typeOnly: boolean }>();
  for (const edge of graph.edges) {
    const from = modules.moduleOf.get(edge.from);
    const to = modules.moduleOf.get(edge.to);
    if (from === undefined || to === undefined || from === to) continue;
    const key = `${from}\0${to}`;
    const pair = pairs.get(key);
    if (pair === undefined) pairs.set(key, { from, to, count: 1, typeOnly: edge.typeOnly });
    else {
      pair.count += 1;
      pair.typeOnly &&= edge.typeOnly;
    }
  }
  return [...pairs.values()].sort(
    (a, b) => compareStrings(a.from, b.from) || compareStrings(a.to, b.to),
  );
}
