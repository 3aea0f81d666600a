import { lstat, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Resolution } from '../analysis/resolve/resolution.js';
import { writeCacheFile } from '../memory/atomic-write.js';
import { readCacheFile } from '../memory/cache-files.js';
import { removeStaleSiblings } from '../memory/stale-cache-folders.js';
import { isRecord } from '../model/json.js';

/** One import's answer and the repository paths it depends on (see Resolver.watched). */
export interface StoredAnswer {
  readonly resolution: Resolution;
  readonly watched: readonly string[];
}

/**
 * Answers and the blob ids of the configs they were computed with that the configs hash does
 * not cover (files a tsconfig `extends` under other names): they hold only where those match.
 */
export interface StoredAnswers {
  readonly answers: Map<string, StoredAnswer>;
  readonly inputs: Readonly<Record<string, string>>;
}

/**
 * The answers computed for one snapshot, kept as two files in `folder` (a checked private
 * folder: cached-resolver.ts):
 * `<configs>.<paths>.json` (the answers, read on every run) and `<configs>.<paths>.paths.json`
 * (the snapshot's paths, read only to carry the answers over to another snapshot of the same
 * configs). `<configs>` hashes the resolution configs, `<paths>` the list of paths.
 */
export interface ResolutionStore {
  /** The answers of exactly this snapshot, if stored and sound. */
  exact(): Promise<StoredAnswers | undefined>;
  /** The most recently stored snapshot of the same configs: its answers and its paths. */
  latestOfSameConfigs(): Promise<(StoredAnswers & { paths: readonly string[] }) | undefined>;
  write(stored: StoredAnswers, paths: readonly string[]): Promise<void>;
}

/** Snapshots kept: the base and head of a few recent checks; older ones are rebuilt when needed. */
const KEPT_SNAPSHOTS = 8;
const ANSWERS = '.json';
const PATHS = '.paths.json';

export function resolutionStore(
  folder: string,
  configsHash: string,
  pathsHash: string,
): ResolutionStore {
  const name = `${configsHash}.${pathsHash}`;
  return {
    exact: () => readAnswers(join(folder, `${name}${ANSWERS}`)),
    latestOfSameConfigs: async () => {
      const names = await readdir(folder).catch(() => []);
      const candidates = names.filter(
        (file) => file.startsWith(`${configsHash}.`) && isAnswersFile(file),
      );
      const latest = (await byRecency(folder, candidates))[0];
      if (latest === undefined) return undefined;
      const stem = latest.slice(0, -ANSWERS.length);
      const [stored, paths] = await Promise.all([
        readAnswers(join(folder, latest)),
        readPaths(join(folder, `${stem}${PATHS}`)),
      ]);
      return stored === undefined || paths === undefined ? undefined : { ...stored, paths };
    },
    write: async ({ answers, inputs }, paths) => {
      // The paths first: answers without their paths could not be carried over, only used.
      await writeCacheFile(join(folder, `${name}${PATHS}`), JSON.stringify(paths));
      const entries = Object.fromEntries(
        [...answers].map(([key, { resolution, watched }]) => [key, [resolution, watched]]),
      );
      await writeCacheFile(
        join(folder, `${name}${ANSWERS}`),
        JSON.stringify({ inputs, answers: entries }),
      );
      await pruneOldSnapshots(folder);
      // Beside this folder are other clones' (RepositorySource.resolutionScope): one nobody
      // wrote to for two weeks is a clone deleted or left alone, which only loses time.
      await removeStaleSiblings(dirname(folder), basename(folder));
    },
  };
}

function isAnswersFile(name: string): boolean {
  return name.endsWith(ANSWERS) && !name.endsWith(PATHS);
}

async function byRecency(folder: string, names: readonly string[]): Promise<string[]> {
  const dated = await Promise.all(
    names.map(async (name) => ({
      name,
      time: (await lstat(join(folder, name)).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  );
  return dated.sort((a, b) => b.time - a.time).map(({ name }) => name);
}

async function pruneOldSnapshots(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => []);
  const stale = (await byRecency(folder, names.filter(isAnswersFile))).slice(KEPT_SNAPSHOTS);
  const files = stale.flatMap((name) => [name, `${name.slice(0, -ANSWERS.length)}${PATHS}`]);
  await Promise.all(files.map((name) => rm(join(folder, name), { force: true })));
}

/** A damaged or foreign cache file only costs a fresh resolution, so anything odd is ignored. */
async function readAnswers(file: string): Promise<StoredAnswers | undefined> {
  const value = await readJson(file);
  if (!isRecord(value) || !isRecord(value.inputs) || !isRecord(value.answers)) return undefined;
  const inputs: Record<string, string> = {};
  for (const [path, blobSha] of Object.entries(value.inputs)) {
    if (typeof blobSha !== 'string') return undefined;
    inputs[path] = blobSha;
  }
  const answers = new Map<string, StoredAnswer>();
  for (const [key, entry] of Object.entries(value.answers)) {
    if (!Array.isArray(entry) || entry.length !== 2) return undefined;
    const [resolution, watched]: unknown[] = entry;
    if (!isResolution(resolution) || !isStringArray(watched)) return undefined;
    answers.set(key, { resolution, watched });
  }
  return { answers, inputs };
}

async function readPaths(file: string): Promise<string[] | undefined> {
  const value = await readJson(file);
  return isStringArray(value) ? value : undefined;
}

/** A file of this user alone (readCacheFile), parsed; anything else is nothing. */
async function readJson(file: string): Promise<unknown> {
  try {
    const found = await readCacheFile(file);
    return found.kind === 'text' ? JSON.parse(found.text) : undefined;
  } catch {
    return undefined;
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isResolution(value: unknown): value is Resolution {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  const { kind } = value;
  if (kind === 'builtin' || kind === 'unresolved') return true;
  if (kind === 'file') return 'path' in value && typeof value.path === 'string';
  return kind === 'external' && 'packageName' in value && typeof value.packageName === 'string';
}
