import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Resolution, ResolveImport } from '../analysis/resolve/resolution.js';
import { writeCacheFile } from '../memory/atomic-write.js';
import { ensureLocalDir } from '../memory/store-paths.js';
import type { RepositorySource, ResolutionFiles, UnreadableFile } from './repository-source.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

/** Files whose contents change how imports resolve; any other file only matters by its path. */
const RESOLUTION_INPUTS =
  /(^|\/)(tsconfig[^/]*\.json|jsconfig[^/]*\.json|package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml)$/;

export interface ResolvedImports {
  readonly resolve: ResolveImport;
  /** Resolution inputs the source could not read: the answers may be wrong (and were not kept). */
  readonly unreadable: readonly UnreadableFile[];
}

/** The import answers of one snapshot, stored ones first. */
export interface Resolutions {
  /**
   * Loads TypeScript (~170 ms) and reads the resolution inputs ahead of `resolveAll`, when no
   * answers are stored for this snapshot (a first run, a changed config), so that it can run
   * while other threads parse. Best effort: never rejects.
   */
  preload(): Promise<void>;
  /** Every request answered: stored answers reused, the others computed and stored. */
  resolveAll(
    requests: ReadonlyArray<{ readonly from: string; readonly specifier: string }>,
  ): Promise<ResolvedImports>;
}

interface StoredResolutions {
  readonly epoch: string;
  readonly entries: Record<string, Resolution>;
}

/**
 * Resolves every import of a snapshot, remembering the answers across runs. An answer depends on
 * the importing folder and file format, the specifier, which paths exist and the resolution
 * configs (tsconfig, package.json, lock files): the "epoch" hashes the last two, so a run that
 * only edits file contents reuses every answer and never loads TypeScript (~200 ms). The
 * answers are computed over the files the source shows TypeScript (the disk of a clone, or the
 * snapshot itself over the API) and kept in the source's store.
 */
export async function openResolutions(
  source: RepositorySource,
  snapshot: readonly SnapshotFile[],
  useCache: boolean,
): Promise<Resolutions> {
  const epoch = resolutionEpoch(snapshot);
  // One file per epoch: a check analyses its base and its head, two epochs, and each keeps its answers.
  const folder = join(await ensureLocalDir(source.storeRoot), 'cache', 'resolutions');
  const file = join(folder, `${epoch}.json`);
  const stored = useCache ? await readStored(file) : undefined;
  const entries: Record<string, Resolution> = stored?.epoch === epoch ? { ...stored.entries } : {};
  let resolver: Promise<{ resolve: ResolveImport; files: ResolutionFiles }> | undefined;
  const loadResolver = () => {
    resolver ??= source
      .resolutionFiles(snapshot)
      .then(async (files) => ({ resolve: await typeScriptResolver(files), files }));
    return resolver;
  };
  return {
    // Failures are left to resolveAll, which awaits the same promise.
    preload: () => (stored?.epoch === epoch ? Promise.resolve() : loadResolver().then(noop, noop)),
    resolveAll: async (requests) => {
      const missing = requests.filter(
        ({ from, specifier }) => entries[keyOf(from, specifier)] === undefined,
      );
      let unreadable: readonly UnreadableFile[] = [];
      if (missing.length > 0) {
        const { resolve, files } = await loadResolver();
        unreadable = files.unreadable;
        for (const { from, specifier } of missing)
          entries[keyOf(from, specifier)] = resolve(from, specifier);
        // Answers given without every resolution input would stand for the whole epoch: not kept.
        if (useCache && unreadable.length === 0) {
          await mkdir(folder, { recursive: true });
          await writeCacheFile(
            file,
            JSON.stringify({ epoch, entries } satisfies StoredResolutions),
          );
          await pruneOldEpochs(folder);
        }
      }
      return {
        resolve: (from, specifier) => entries[keyOf(from, specifier)] ?? { kind: 'unresolved' },
        unreadable,
      };
    },
  };
}

function noop(): void {}

/** Epochs kept: the base and head of a few recent checks; older ones are rebuilt when needed. */
const KEPT_EPOCHS = 8;

async function pruneOldEpochs(folder: string): Promise<void> {
  const files = await readdir(folder).catch(() => []);
  const dated = await Promise.all(
    files
      .filter((name) => name.endsWith('.json'))
      .map(async (name) => ({
        name,
        time: (await stat(join(folder, name)).catch(() => undefined))?.mtimeMs ?? 0,
      })),
  );
  const stale = dated.sort((a, b) => b.time - a.time).slice(KEPT_EPOCHS);
  await Promise.all(stale.map(({ name }) => rm(join(folder, name), { force: true })));
}

/** Files of one folder and extension resolve a specifier alike (TypeScript caches it so too). */
function keyOf(from: string, specifier: string): string {
  const extension = posix.extname(from);
  return `${posix.dirname(from)}\u0000${extension}\u0000${specifier}`;
}

function resolutionEpoch(snapshot: readonly SnapshotFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...snapshot].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  )) {
    hash.update(file.path);
    hash.update(RESOLUTION_INPUTS.test(file.path) ? `\u0000${file.blobSha}\n` : '\n');
  }
  return hash.digest('hex');
}

async function typeScriptResolver(files: ResolutionFiles): Promise<ResolveImport> {
  // One after the other: both import compiler-defaults, and Jest's module linker fails on a
  // module two pending imports link at once ("request … is not in cache"); Node does not care.
  const { createTypeScriptHost } = await import('../memory/typescript-host.js');
  const { createResolver } = await import('../analysis/resolve/create-resolver.js');
  const host = createTypeScriptHost(files.rootDir, files.host);
  return createResolver({
    rootDir: files.rootDir,
    host: host.host,
    compilerOptionsFor: host.compilerOptionsFor,
  }).resolve;
}

/** A damaged or foreign cache file only costs a fresh resolution, so anything odd is ignored. */
async function readStored(file: string): Promise<StoredResolutions | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (typeof value !== 'object' || value === null || !('epoch' in value) || !('entries' in value))
      return undefined;
    const { epoch, entries } = value;
    if (typeof epoch !== 'string' || typeof entries !== 'object' || entries === null)
      return undefined;
    return {
      epoch,
      entries: Object.fromEntries(Object.entries(entries).filter(([, r]) => isResolution(r))),
    };
  } catch {
    return undefined;
  }
}

function isResolution(value: unknown): value is Resolution {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  const { kind } = value;
  if (kind === 'builtin' || kind === 'unresolved') return true;
  if (kind === 'file') return 'path' in value && typeof value.path === 'string';
  return kind === 'external' && 'packageName' in value && typeof value.packageName === 'string';
}
