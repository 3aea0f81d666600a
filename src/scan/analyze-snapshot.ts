import { detectLanguage, hasNoExtension, languageOfShebang } from '../analysis/detect-language.js';
import { findCycles } from '../analysis/graph/find-cycles.js';
import { buildModuleGraph, type ModuleGraph } from '../analysis/graph/module-graph.js';
import {
  groupModules,
  type ModuleLevelEdge,
  moduleEdges,
  type PolicyModules,
} from '../analysis/graph/policy-modules.js';
import { goImportCandidates } from '../analysis/resolve/go-imports.js';
import { javaImportCandidates, javaImportGraph } from '../analysis/resolve/java-imports.js';
import { type ResolveImport, resolvedFiles } from '../analysis/resolve/resolution.js';
import { MAX_DEPTH as REEXPORT_LIMIT } from '../analysis/semantics/exported-names.js';
import {
  resolveHeritage,
  type UnresolvedHeritage,
  unresolvedHeritage,
} from '../analysis/semantics/heritage.js';
import {
  type AbstractionImplementations,
  countImplementations,
} from '../analysis/semantics/implementations.js';
import {
  type ClassInheritance,
  inheritanceDepth,
} from '../analysis/semantics/inheritance-depth.js';
import { DEFAULT_MAX_BLOB_BYTES } from '../git/blob-limit.js';
import { SUBMODULE_MODE, SYMLINK_MODE } from '../git/blob-version.js';
import type { FactsCache } from '../memory/facts-cache.js';
import type { FileFacts, ImportFact, Language } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { globMatcher } from '../policy/glob-matcher.js';
import { openResolutions, type Resolutions } from './cached-resolver.js';
import { collectFacts, type SourceFile } from './collect-facts.js';
import type { ParserChoice } from './fact-parsers.js';
import { type GoConfigs, goResolver, isGoFile, readGoConfigs } from './go-import-resolution.js';
import { type GraphKeeper, keptGraphFor } from './kept-graph.js';
import { type PythonResolution, readPythonResolution } from './python-resolution.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import { requiredAsCode } from './required-as-code.js';
import { worthResolverThread } from './resolver-thread.js';
import {
  type ImportCandidates,
  type ImportsOfUnread,
  type LinkedEntries,
  type ResolvedImport,
  type UnreadFile,
  type UnreadImport,
  unreadImports,
} from './unread-imports.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

export type { UnreadImport } from './unread-imports.js';

export interface SnapshotAnalysisOptions {
  readonly parser?: ParserChoice;
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * One facts cache for the analyses of one check (its base and its head share nearly every
   * file): each entry is then read and decoded once.
   */
  readonly factsCache?: FactsCache;
  /**
   * Opens the import answers of the snapshot: openResolutions unless the caller keeps them
   * across the snapshots it analyses (resolutionsKeeper).
   */
  readonly openResolutions?: typeof openResolutions;
  /**
   * Keeps the import graph (and what follows from it alone) for the caller's next analysis,
   * which reuses it when only the contents of source files changed, their imports the same
   * (kept-graph.ts); with the import answers kept too (resolutionsKeeper).
   */
  readonly graphKeeper?: GraphKeeper;
}

export interface RepositoryAnalysis {
  readonly facts: ReadonlyMap<string, FileFacts>;
  readonly graph: ModuleGraph;
  /**
   * Cycles as strongly connected components, counting imports TypeScript's emit erases as the
   * policy says.
   */
  readonly cycles: readonly (readonly string[])[];
  readonly countsTypeOnlyImports: boolean;
  readonly modules: PolicyModules;
  readonly moduleEdges: readonly ModuleLevelEdge[];
  /** Every abstraction (Go's aside) and the classes implementing it across files. */
  readonly implementations: readonly AbstractionImplementations[];
  /** Every class's `extends` chain across files (Go has none). */
  readonly inheritance: readonly ClassInheritance[];
  /** The `extends`/`implements` entries that reach no repository declaration, and why. */
  readonly unresolvedHeritage: readonly UnresolvedHeritage[];
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>;
  /** Imports of source files the analysis does not read: the code they run goes unjudged. */
  readonly unreadImports: readonly UnreadImport[];
  /**
   * Files the source could not give (source files, resolution inputs): the analysis is
   * incomplete. Always empty from git, which throws instead.
   */
  readonly unreadable: readonly UnreadableFile[];
  /** False when the run went without caches (off, or no usable cache folder: cache-dir.ts). */
  readonly usedCache: boolean;
  readonly stats: {
    readonly trackedFiles: number;
    readonly sourceFiles: number;
    readonly parsed: number;
    readonly cached: number;
    /** The threads that parsed (1, or the worker threads of a large run). */
    readonly parseThreads: number;
    readonly byLanguage: Readonly<Partial<Record<Language, number>>>;
  };
}

/**
 * The whole-repository analysis of one snapshot, whichever source it comes from: every source
 * file's facts (cached by blob id, read from the source on a miss), the import graph between
 * them, its cycles, the policy's modules, and the classes' parents resolved across files
 * (implementations of each abstraction, inheritance depth). Files the policy ignores (read from
 * the policy given, which callers take from the base commit) are left out.
 */
export async function analyzeSnapshot(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
  policy: Policy,
  options: SnapshotAnalysisOptions = {},
): Promise<RepositoryAnalysis> {
  const scripts = await scriptLanguages(source, snapshot, policy.paths.ignore);
  const { sources, unread, linked } = sourceFiles(snapshot, policy.paths.ignore, scripts);
  // The caches live where no checkout reaches (RepositorySource.cacheDir): whatever the
  // snapshot tracks, even under .aureus/local/, is analysed as the repository's files.
  const useCache = source.cacheDir !== undefined;
  const resolutions = await (options.openResolutions ?? openResolutions)(source, snapshot);
  try {
    const python = await readPythonResolution(source, snapshot);
    const go = await readGoConfigs(source, snapshot);
    return await analyzeWith(resolutions, source, sources, policy, options, {
      snapshot,
      trackedFiles: snapshot.length,
      usedCache: useCache,
      python,
      go,
      unread,
      linked,
    });
  } finally {
    resolutions.close();
  }
}

async function analyzeWith(
  resolutions: Resolutions,
  source: RepositorySource,
  sources: readonly SourceFile[],
  policy: Policy,
  options: SnapshotAnalysisOptions,
  listing: {
    readonly snapshot: readonly SnapshotFile[];
    readonly trackedFiles: number;
    readonly usedCache: boolean;
    readonly python: PythonResolution;
    readonly go: GoConfigs | undefined;
    /** The snapshot's source files the analysis does not read, and why. */
    readonly unread: ReadonlyMap<string, UnreadFile>;
    /** The snapshot's links and submodules, whatever their names. */
    readonly linked: LinkedEntries;
  },
): Promise<RepositoryAnalysis> {
  const parsed = await collectFacts(source, sources, {
    parser: options.parser ?? 'auto',
    useCache: listing.usedCache,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    factsCache: options.factsCache,
    // TypeScript loads for resolution while parsing goes on: on a worker thread when this one
    // parses enough alone, else here while workers parse (or git reads the texts).
    whileParsing: (parsedHere) =>
      resolutions.preload(parsedHere !== undefined && worthResolverThread(parsedHere)),
    // Resolved as each file is parsed, once TypeScript is loaded: while parsing goes on.
    onParsed: (from, fileFacts) => resolutions.resolveEarly(typeScriptRequests(from, fileFacts)),
  });
  const required = await requiredAsCode(
    parsed,
    listing.snapshot,
    globMatcher(policy.paths.ignore),
    (files) =>
      collectFacts(source, files, {
        parser: options.parser ?? 'auto',
        useCache: listing.usedCache,
        factsCache: options.factsCache,
      }),
  );
  const { collected } = required;
  const kept = keptGraphFor(options.graphKeeper, source, policy, listing.snapshot, collected.facts);
  const { python } = listing;
  const imports = new Map<string, readonly ImportFact[]>();
  for (const [path, fileFacts] of collected.facts) {
    const own = fileFacts.imports;
    imports.set(path, isPython(fileFacts) ? python.imports.graphImports(path, own) : own);
  }
  // Java's imports resolve by package and class (java-imports.ts), with the types a file uses.
  const java = javaImportGraph(collected.facts);
  for (const [path, list] of java.imports) imports.set(path, list);
  const requests = [...collected.facts].flatMap(([from, facts]) => typeScriptRequests(from, facts));
  const resolved = await resolutions.resolveAll(requests);
  const go = listing.go === undefined ? undefined : goResolver(listing.go, collected.facts);
  const resolve: ResolveImport = required.resolve((from, specifier) => {
    if (java.imports.has(from)) return java.resolve(from, specifier);
    if (go !== undefined && isGoFile(from)) return go.resolve(from, specifier);
    return isPython(collected.facts.get(from))
      ? python.imports.resolve(from, specifier)
      : resolved.resolve(from, specifier);
  });
  // Where each resolver looked for an import, or would have (Java's, under its source roots).
  const goCandidates = listing.go === undefined ? undefined : goImportCandidates(listing.go.texts);
  const javaCandidates = javaImportCandidates(collected.facts, listing.linked.keys());
  const candidates: ImportCandidates = (from, specifier) => {
    if (java.imports.has(from)) return javaCandidates(from, specifier);
    if (go !== undefined && isGoFile(from)) return goCandidates?.(from, specifier) ?? [];
    return isPython(collected.facts.get(from))
      ? python.imports.tried(from, specifier)
      : resolved.tried(from, specifier);
  };
  // The configs are read only where their settings can change an answer.
  const emitSettings =
    kept === undefined && [...imports.values()].some((list) => list.some(dependsOnSettings))
      ? await resolutions.emitSettings()
      : undefined;
  const graph = kept?.graph ?? buildModuleGraph(imports, resolve, emitSettings?.of);
  const emitUnreadable = kept?.emitUnreadable ?? emitSettings?.unreadable ?? [];
  const unreadableConfigs = emitUnreadable.filter(
    (file) => !resolved.unreadable.some((known) => known.path === file.path),
  );
  const countsTypeOnlyImports =
    policy.forbidden_patterns.circular_dependency.count_type_only_imports;
  const modules = kept?.modules ?? groupModules(graph.nodes, policy.paths.core);
  // The graph's resolver again: every specifier it answers for is one of these files' imports.
  const heritage = resolveHeritage(collected.facts, resolve);
  const unresolvedParents = unresolvedHeritage(heritage);
  // Ignored files the analysed code imports are read for their own imports, nothing else.
  // One that cannot be read (over the read limit, binary) hides what it imports: the analysis
  // is incomplete, never a pass that skipped it.
  const unreadReached: UnreadableFile[] = [];
  const importsOfUnread: ImportsOfUnread = async (files) => {
    const read = await collectFacts(
      source,
      files.filter((file) => file.mode !== SYMLINK_MODE),
      {
        parser: options.parser ?? 'auto',
        useCache: listing.usedCache,
        factsCache: options.factsCache,
      },
    );
    unreadReached.push(...read.unreadable, ...read.skipped.map(unreadReachedFile));
    const requests = [...read.facts].flatMap(([from, facts]) => typeScriptRequests(from, facts));
    const answered = requests.length === 0 ? undefined : await resolutions.resolveAll(requests);
    const targets = new Map<string, readonly ResolvedImport[]>();
    for (const [from, facts] of read.facts) {
      const own = isPython(facts)
        ? python.imports.graphImports(from, facts.imports)
        : facts.imports;
      const answer = (specifier: string) => {
        if (isPython(facts)) return python.imports.resolve(from, specifier);
        return answered === undefined
          ? resolve(from, specifier)
          : answered.resolve(from, specifier);
      };
      const tried = (specifier: string) => {
        if (isPython(facts)) return python.imports.tried(from, specifier);
        return answered === undefined
          ? candidates(from, specifier)
          : answered.tried(from, specifier);
      };
      targets.set(
        from,
        own.map(({ specifier }) => {
          const files = resolvedFiles(answer(specifier));
          return { specifier, files, tried: files.length === 0 ? tried(specifier) : [] };
        }),
      );
    }
    return targets;
  };
  const reached =
    kept?.unreadImports ??
    (await unreadImports(
      imports,
      resolve,
      candidates,
      listing.unread,
      listing.linked,
      importsOfUnread,
    ));
  const reachedUnreadable = kept?.unreadReached ?? unreadReached;
  const cycles = kept?.cycles ?? findCycles(graph, { includeTypeOnly: countsTypeOnlyImports });
  const edges = kept?.moduleEdges ?? moduleEdges(graph, modules);
  if (options.graphKeeper !== undefined) {
    options.graphKeeper.last = {
      source,
      policy,
      files: new Map(listing.snapshot.map((file) => [file.path, file])),
      facts: collected.facts,
      graph,
      modules,
      cycles,
      moduleEdges: edges,
      unreadImports: reached,
      unreadReached: reachedUnreadable,
      emitUnreadable,
    };
  }
  return {
    facts: collected.facts,
    graph,
    cycles,
    countsTypeOnlyImports,
    modules,
    moduleEdges: edges,
    implementations: countImplementations(heritage),
    inheritance: inheritanceDepth(heritage),
    unresolvedHeritage: unresolvedParents,
    skipped: collected.skipped,
    unreadImports: reached,
    unreadable: [
      ...reachedUnreadable.filter(
        (file, at) => reachedUnreadable.findIndex((other) => other.path === file.path) === at,
      ),
      ...collected.unreadable,
      ...resolved.unreadable,
      ...unreadableConfigs,
      ...python.unreadable,
      ...(listing.go?.unreadable ?? []),
      ...(go?.unreadable ?? []),
      ...java.incomplete,
      ...unresolvedParents.flatMap(pastReexportLimit),
    ],
    usedCache: listing.usedCache,
    stats: {
      trackedFiles: listing.trackedFiles,
      sourceFiles: sources.length,
      parsed: collected.parsed,
      cached: collected.cached,
      parseThreads: collected.parseThreads,
      byLanguage: countByLanguage(sources),
    },
  };
}

/**
 * An ignored file the analysed code reaches whose imports could not be read: `skipped` by the
 * facts' collection. Its imports, and the files they lead to, go unjudged.
 */
function unreadReachedFile({ path, reason }: { readonly path: string; readonly reason: string }) {
  const why =
    reason === 'too-large'
      ? `it is over the read limit of ${DEFAULT_MAX_BLOB_BYTES} bytes (1 MiB)`
      : reason === 'binary'
        ? 'it is binary'
        : `it could not be read (${reason})`;
  return {
    path,
    reached: true as const,
    problem: `analysed code imports this file under paths.ignore, whose own imports AUREUS follows, but ${why}, so the code it imports runs unjudged. To resolve, keep imported code under the limit, or import what it imports directly`,
  };
}

/**
 * A parent past the re-export bound would count as a library's class: one level, and none of
 * the levels above it, so a hierarchy could hide its depth behind a chain of barrel files.
 */
function pastReexportLimit(parent: UnresolvedHeritage): UnreadableFile[] {
  if (parent.reason !== 'too-deep') return [];
  return [
    {
      path: parent.file,
      problem: `class ${parent.name} ${parent.relation} ${parent.written}, which is reached through more than ${REEXPORT_LIMIT} re-exports in a row, the most AUREUS follows, so its inheritance and implementations are unknown. To resolve, import ${parent.written} from a file nearer its declaration`,
    },
  ];
}

/**
 * The scripts whose names have no extension (`bin/tool`), by the language their `#!` line
 * names: priced by lines alone, one could spawn processes and eval unseen. Ignored files, links
 * and files over the read limit are not read for it.
 */
async function scriptLanguages(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
  ignore: readonly string[],
): Promise<ReadonlyMap<string, Language>> {
  const isIgnored = globMatcher(ignore);
  const candidates = snapshot.filter(
    (file) =>
      /^100(644|755)$/.test(file.mode) && hasNoExtension(file.path) && !isIgnored(file.path),
  );
  const found = new Map<string, Language>();
  for (const { version } of candidates.length === 0 ? [] : await source.readBlobs(candidates)) {
    const language = version.text === undefined ? undefined : languageOfShebang(version.text);
    if (version.kind === 'text' && language !== undefined) found.set(version.path, language);
  }
  return found;
}

function sourceFiles(
  snapshot: readonly SnapshotFile[],
  ignore: readonly string[],
  scripts: ReadonlyMap<string, Language>,
) {
  const isIgnored = globMatcher(ignore);
  const sources: SourceFile[] = [];
  const unread = new Map<string, UnreadFile>();
  const linked = new Map<string, 'symlink' | 'submodule'>();
  for (const file of snapshot) {
    if (file.mode === SYMLINK_MODE) linked.set(file.path, 'symlink');
    if (file.mode === SUBMODULE_MODE) linked.set(file.path, 'submodule');
    const language = detectLanguage(file.path) ?? scripts.get(file.path);
    if (language === undefined) continue;
    const source = { ...file, language };
    if (file.mode === SYMLINK_MODE) unread.set(file.path, { why: 'symlink', file: source });
    if (isIgnored(file.path)) unread.set(file.path, { why: 'ignored', file: source });
    else sources.push(source);
  }
  return { sources, unread, linked };
}

function countByLanguage(files: readonly SourceFile[]): Partial<Record<Language, number>> {
  const counts: Partial<Record<Language, number>> = {};
  for (const { language } of files) counts[language] = (counts[language] ?? 0) + 1;
  return counts;
}

/** Python's imports go to Python's resolver (python-imports.ts), the others to TypeScript's. */
function isPython(facts: FileFacts | undefined): boolean {
  return facts?.language === 'python';
}

/** The imports TypeScript's resolver answers: Python's, Java's and Go's have resolvers of their own. */
function typeScriptRequests(from: string, facts: FileFacts) {
  return isPython(facts) || facts.language === 'java' || facts.language === 'go'
    ? []
    : facts.imports.map(({ specifier }) => ({ from, specifier }));
}

/** Whether the compiler settings decide if TypeScript's emit keeps the import. */
function dependsOnSettings(fact: ImportFact): boolean {
  return fact.keptWhen.length > 0 && !fact.keptWhen.includes('always');
}
