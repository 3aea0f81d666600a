import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { EmitSettings } from '../analysis/graph/emit-settings.js';
import { compareStrings } from '../analysis/graph/module-graph.js';
import type { Resolver } from '../analysis/resolve/create-resolver.js';
import { emitSettingsByFile } from '../analysis/resolve/emit-settings-of.js';
import type { ResolveImport } from '../analysis/resolve/resolution.js';
import { SYMLINK_MODE } from '../git/blob-version.js';
import { privateFolders } from '../memory/cache-files.js';
import { errnoCode } from '../memory/errno-code.js';
import type { RepositorySource, ResolutionFiles, UnreadableFile } from './repository-source.js';
import { type ImportRequest, type ResolverThread, startResolverThread } from './resolver-thread.js';
import {
  type ResolutionStore,
  resolutionStore,
  type StoredAnswer,
  type StoredAnswers,
} from './stored-resolutions.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/**
 * The layout of the stored answers. Two AUREUS versions on one repository (a hook from the
 * project's node_modules, a global CLI) each keep their own folder instead of overwriting
 * each other's files and resolving everything again on every run. A change in what an answer
 * is bumps it (3: a tracked file under node_modules is the repository's, not a package's).
 */
const STORE_FORMAT = 3;

/** Files whose contents change how imports resolve; any other file only matters by its path. */
const RESOLUTION_INPUTS =
  /(^|\/)(tsconfig[^/]*\.json|jsconfig[^/]*\.json|package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml)$/;

export interface ResolvedImports {
  readonly resolve: ResolveImport;
  /**
   * The repository paths TypeScript looked at on the way to an import's answer (its watched
   * paths, folders ending in `/`): where an import that reached no file would have found it.
   */
  readonly tried: (from: string, specifier: string) => readonly string[];
  /** Resolution inputs the source could not read: the answers may be wrong (and were not kept). */
  readonly unreadable: readonly UnreadableFile[];
}

/** The import answers of one snapshot, stored ones first. */
export interface Resolutions {
  /**
   * Loads TypeScript and reads the resolution inputs ahead of `resolveAll`, when no stored
   * answer holds for this snapshot (a first run, a change of configs), so that it happens while
   * parsing goes on: on this thread while other threads parse, or on a worker thread
   * (`offThread`) while this one parses (resolver-thread.ts says when that pays). Best effort:
   * never rejects; the first call decides.
   */
  preload(offThread?: boolean): Promise<void>;
  /**
   * Answers `requests` now when the resolver is loaded already, or hands them to its thread, so
   * that the work resolveAll would do happens while parsing goes on; else does nothing. Never
   * loads it, never throws.
   */
  resolveEarly(requests: readonly ImportRequest[]): void;
  /** Every request answered: stored answers reused, the others computed and stored. */
  resolveAll(requests: readonly ImportRequest[]): Promise<ResolvedImports>;
  /**
   * Each file's emit settings, from the tsconfig texts among the resolution inputs (read then,
   * if no answer needed them): they decide which imports TypeScript's emit keeps. `unreadable`:
   * configs that could not be read, whose files got TypeScript's defaults.
   */
  emitSettings(): Promise<{
    readonly of: (file: string) => EmitSettings;
    readonly unreadable: readonly UnreadableFile[];
  }>;
  /** Ends a resolver thread that resolveAll did not (a run that failed first); idempotent. */
  close(): void;
}

interface LoadedResolver {
  readonly resolver: Resolver;
  readonly files: ResolutionFiles;
}

/**
 * Resolves every import of a snapshot, remembering the answers across runs. An answer depends on
 * the importing folder and file format, the specifier, the resolution configs (tsconfig,
 * package.json, lock files) and which paths exist. A run that only edits file contents reuses
 * every answer and never loads TypeScript (~200 ms). A run that adds, removes or renames files
 * (a commit that adds a file) starts from the answers of the latest snapshot with the same
 * configs and keeps each one none of whose watched paths (what TypeScript looked for on the
 * way to it) was added or removed: only the others, and new imports, are resolved again. A
 * change of configs resolves everything, a file a tsconfig `extends` included, whatever its
 * name (kept with the answers by blob id). Answers are computed over the files the source shows
 * TypeScript (the disk of a clone, or the snapshot itself over the API) and kept in the
 * source's store.
 */
export async function openResolutions(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
): Promise<Resolutions> {
  return (await opened(source, snapshot)).resolutions;
}

/**
 * Opens the resolutions of successive snapshots of one source (the trees a builder run leaves
 * action after action), keeping the last ones open between analyses: a snapshot with the same
 * paths and the same files its answers were read from (every resolution config, and the files a
 * tsconfig `extends` under other names) gets them again, answers and configs in memory, instead
 * of reading the stored answers anew. Anything else opens them as openResolutions does. Only
 * resolutions whose analysis answered its imports are kept; one analysis at a time uses them
 * (another, meanwhile, opens its own). `close` of what it gives keeps them for the next.
 */
export function resolutionsKeeper(): (
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
) => Promise<Resolutions> {
  let kept: { readonly source: RepositorySource; readonly open: OpenedResolutions } | undefined;
  const lend = (source: RepositorySource, open: OpenedResolutions): Resolutions => {
    let answered = false;
    return {
      ...open.resolutions,
      resolveAll: async (requests) => {
        const answers = await open.resolutions.resolveAll(requests);
        answered = true;
        return answers;
      },
      close: () => {
        if (answered && kept === undefined) kept = { source, open };
        else open.resolutions.close();
      },
    };
  };
  return async (source, snapshot) => {
    const last = kept;
    kept = undefined;
    if (last !== undefined && last.source === source && (await last.open.holdsFor(snapshot)))
      return lend(source, last.open);
    last?.open.resolutions.close();
    return lend(source, await opened(source, snapshot));
  };
}

interface OpenedResolutions {
  readonly resolutions: Resolutions;
  /**
   * Whether every answer these resolutions give (and every config text) is `next`'s too: the
   * same paths, the same resolution configs and links, and the same blob of every file the
   * answers were read from. Never true once the resolution files failed to be read.
   */
  readonly holdsFor: (next: readonly SnapshotFile[]) => Promise<boolean>;
}

async function opened(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
): Promise<OpenedResolutions> {
  const paths = snapshot.map((file) => file.path).sort(compareStrings);
  const { configs, pathList } = snapshotHashes(snapshot, paths);
  const store = await storeOf(source, configs, pathList);
  const blobOf = new Map(snapshot.map((file) => [file.path, file.blobSha]));
  const holds: Holds = (stored) =>
    stored !== undefined &&
    Object.entries(stored.inputs).every(([path, blobSha]) => blobOf.get(path) === blobSha)
      ? stored
      : undefined;
  const exact = store === undefined ? undefined : holds(await store.exact());
  const start = exact ?? (store === undefined ? undefined : await carriedOver(store, paths, holds));
  const answers = new Map(start?.answers);
  const keyOf = answerKeys();
  const inputs: Record<string, string> = { ...start?.inputs };
  let files: Promise<ResolutionFiles> | undefined;
  const readFiles = () => {
    files ??= source.resolutionFiles(snapshot);
    return files;
  };
  let resolver: Promise<LoadedResolver> | undefined;
  let loaded: LoadedResolver | undefined;
  const loadResolver = () => {
    resolver ??= readFiles().then(async (read) => {
      const { typeScriptResolver } = await import('./typescript-resolver.js');
      loaded = { resolver: typeScriptResolver(read), files: read };
      return loaded;
    });
    return resolver;
  };
  // Started by the first preload that asks for it; `asked` holds the keys handed to it.
  let thread: ResolverThread | undefined;
  const asked = new Set<string>();
  const startThread = async () => {
    thread = startResolverThread();
    if (thread === undefined) return loadResolver().then(noop);
    const started = thread;
    return readFiles().then((read) => started.load(read));
  };
  let preloading: Promise<void> | undefined;
  // Whether any answer was computed here rather than stored: the answers then need storing.
  let computed = false;
  // Whether the store holds the answers as they are (computed ones since stored).
  let stored = exact !== undefined;
  const answer = (using: LoadedResolver, requests: readonly ImportRequest[]) => {
    for (const { from, specifier } of requests) {
      const key = keyOf(from, specifier);
      if (answers.has(key)) continue;
      answers.set(key, {
        resolution: using.resolver.resolve(from, specifier),
        watched: using.resolver.watched(from, specifier),
      });
      computed = true;
    }
  };
  const askThread = (using: ResolverThread, requests: readonly ImportRequest[]) => {
    using.ask(
      requests.filter(({ from, specifier }) => {
        const key = keyOf(from, specifier);
        if (answers.has(key) || asked.has(key)) return false;
        asked.add(key);
        return true;
      }),
    );
  };
  /** The thread's answers; those it could not give are left for this thread. */
  const settleThread = async (using: ResolverThread) => {
    thread = undefined;
    const settled = await using.settle();
    for (const { from, specifier, resolution, watched } of settled.answers) {
      answers.set(keyOf(from, specifier), { resolution, watched });
      computed = true;
    }
  };
  const modeOf = new Map(snapshot.map((file) => [file.path, file.mode]));
  const holdsFor = async (next: readonly SnapshotFile[]): Promise<boolean> => {
    if (next.length !== snapshot.length) return false;
    const nextPaths = next.map((file) => file.path).sort(compareStrings);
    const hashes = snapshotHashes(next, nextPaths);
    if (hashes.configs !== configs || hashes.pathList !== pathList) return false;
    const read = files === undefined ? undefined : await files.catch(() => null);
    if (read === null) return false;
    // Stricter than the stored answers: no path changed what it is (a file, a link, a submodule).
    if (next.some((file) => modeOf.get(file.path) !== file.mode)) return false;
    const nextBlob = new Map(next.map((file) => [file.path, file.blobSha]));
    const readFrom = [...Object.keys(inputs), ...(read?.configs ?? [])];
    return readFrom.every((path) => nextBlob.get(path) === blobOf.get(path));
  };
  const resolutions: Resolutions = {
    // Failures are left to resolveAll, which meets them again.
    // Stored answers that hold, even none (sources that import nothing), need no TypeScript.
    preload: (offThread = false) => {
      if (start !== undefined) return Promise.resolve();
      preloading ??= offThread ? startThread() : loadResolver().then(noop);
      return preloading.then(noop, noop);
    },
    resolveEarly: (requests) => {
      if (thread !== undefined) return askThread(thread, requests);
      if (loaded === undefined) return;
      try {
        answer(loaded, requests);
      } catch {
        // Called from worker message handlers: what failed here is left unanswered, and
        // resolveAll meets the same failure where it is reported.
      }
    },
    resolveAll: async (requests) => {
      await preloading?.catch(noop);
      if (thread !== undefined) {
        askThread(thread, requests);
        await settleThread(thread);
      }
      const missing = requests.filter(
        ({ from, specifier }) => !answers.has(keyOf(from, specifier)),
      );
      let unreadable: readonly UnreadableFile[] = [];
      if (missing.length > 0 || computed) {
        const read = await readFiles();
        unreadable = read.unreadable;
        if (missing.length > 0) answer(await loadResolver(), missing);
        // Configs the hash does not name (a base config `extends` reaches): kept by blob id.
        for (const path of read.configs) {
          const blobSha = blobOf.get(path);
          if (blobSha !== undefined && !RESOLUTION_INPUTS.test(path)) inputs[path] = blobSha;
        }
      }
      // Answers given without every resolution input would stand for the snapshot: not kept.
      if (store !== undefined && unreadable.length === 0 && (!stored || computed)) {
        // A save that fails (the cache folder deleted meanwhile, a full disk) loses the next
        // run's time only: these answers are the ones computed now, and the next resolveAll
        // tries to save them again.
        if (await savedAnswers(store, { answers, inputs }, paths)) {
          stored = true;
          computed = false;
        }
      }
      return {
        resolve: (from, specifier) =>
          answers.get(keyOf(from, specifier))?.resolution ?? { kind: 'unresolved' },
        tried: (from, specifier) => answers.get(keyOf(from, specifier))?.watched ?? [],
        unreadable,
      };
    },
    emitSettings: async () => {
      const read = await readFiles();
      return { of: emitSettingsByFile(read.texts), unreadable: read.unreadable };
    },
    close: () => thread?.stop(),
  };
  return { resolutions, holdsFor };
}

function noop(): void {}

/** Whether the answers were saved; false when the file system refused (errnoCode). */
async function savedAnswers(
  store: ResolutionStore,
  stored: StoredAnswers,
  paths: readonly string[],
): Promise<boolean> {
  try {
    await store.write(stored, paths);
    return true;
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
    return false;
  }
}

/**
 * The source's answers in its cache folder: `resolutions/v<format>/<scope>/`, the scope keeping
 * a clone's answers its own (RepositorySource.resolutionScope). Undefined without caches.
 */
async function storeOf(
  source: RepositorySource,
  configs: string,
  pathList: string,
): Promise<ResolutionStore | undefined> {
  if (source.cacheDir === undefined) return undefined;
  const formatFolder = `v${STORE_FORMAT}`;
  const folder = await privateFolders(source.cacheDir)(
    'resolutions',
    formatFolder,
    source.resolutionScope,
  );
  return resolutionStore(folder, configs, pathList);
}

/** Stored answers if every config they list by blob id is unchanged in this snapshot. */
type Holds = <T extends StoredAnswers>(stored: T | undefined) => T | undefined;

/**
 * The answers of the latest snapshot with the same configs that still hold here: those none of
 * whose watched paths, nor a folder above one, was added or removed since. Compared without
 * case, so that a file system that ignores case is covered too. A package lookup under a
 * node_modules folder is watched incompletely (see Resolver.watched): when a path there
 * changed, every answer that is not for a relative path is dropped.
 */
async function carriedOver(
  store: ResolutionStore,
  paths: readonly string[],
  holds: Holds,
): Promise<StoredAnswers | undefined> {
  const earlier = holds(await store.latestOfSameConfigs());
  if (earlier === undefined) return undefined;
  const now = new Set(paths);
  const before = new Set(earlier.paths);
  const changed = [
    ...paths.filter((path) => !before.has(path)),
    ...earlier.paths.filter((path) => !now.has(path)),
  ];
  const touched = new Set<string>();
  for (const path of changed) {
    const lower = path.toLowerCase();
    touched.add(lower);
    // Every folder above it: a lookup that found one of them missing may find it now.
    for (let slash = lower.indexOf('/'); slash !== -1; slash = lower.indexOf('/', slash + 1))
      touched.add(lower.slice(0, slash + 1));
  }
  const packagesChanged = changed.some((path) => `/${path}`.includes('/node_modules/'));
  const kept = new Map<string, StoredAnswer>();
  for (const [key, answer] of earlier.answers) {
    if (packagesChanged && !isRelative(specifierOf(key))) continue;
    if (answer.watched.some((path) => touched.has(path.toLowerCase()))) continue;
    kept.set(key, answer);
  }
  return { answers: kept, inputs: earlier.inputs };
}

/** Files of one folder and extension resolve a specifier alike (TypeScript caches it so too). */
function answerKeys(): (from: string, specifier: string) => string {
  // Asked once per import when resolving and again by the graph and the heritage: the part
  // that depends on the file is worked out once per file.
  const prefixes = new Map<string, string>();
  return (from, specifier) => {
    let prefix = prefixes.get(from);
    if (prefix === undefined) {
      prefix = `${posix.dirname(from)}${SEPARATOR}${posix.extname(from)}${SEPARATOR}`;
      prefixes.set(from, prefix);
    }
    return prefix + specifier;
  };
}

const SEPARATOR = '\u0000';

function specifierOf(key: string): string {
  return key.slice(key.indexOf(SEPARATOR, key.indexOf(SEPARATOR) + 1) + 1);
}

function isRelative(specifier: string): boolean {
  return /^\.\.?(\/|$)/.test(specifier);
}

/**
 * The snapshot's two identities: its resolution configs (their paths and blob ids; symbolic
 * links' too, since a link's target decides where a lookup through it leads) and its paths.
 */
function snapshotHashes(
  snapshot: readonly SnapshotFile[],
  sortedPaths: readonly string[],
): { configs: string; pathList: string } {
  const configs = createHash('sha256');
  const inputs = snapshot
    .filter((file) => RESOLUTION_INPUTS.test(file.path) || file.mode === SYMLINK_MODE)
    .sort((a, b) => compareStrings(a.path, b.path));
  for (const file of inputs) configs.update(`${file.path}${SEPARATOR}${file.blobSha}\n`);
  const pathList = createHash('sha256');
  for (const path of sortedPaths) pathList.update(`${path}\n`);
  return {
    configs: configs.digest('hex').slice(0, 32),
    pathList: pathList.digest('hex').slice(0, 32),
  };
}
