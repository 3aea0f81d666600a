import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileFacts, Language } from '../model/facts.js';
import { writeCacheFile } from './atomic-write.js';
import { readCacheFile } from './cache-files.js';
import { factsCacheFolders, VERSION_FOLDER } from './facts-cache-folders.js';
import {
  decodeEntry,
  encodeEntry,
  entryKey,
  type FactsEntry,
  type FactsKey,
} from './facts-cache-format.js';
import {
  MAX_PACKS,
  mergePacks,
  type PackIndex,
  readPacks,
  readPlacedLines,
  writePack,
} from './facts-cache-pack.js';
import { removeStaleSiblings } from './stale-cache-folders.js';

/** Loose entries read at once by getMany. */
const PARALLEL_READS = 64;

/**
 * Most entries getMany reads through the packs' places before reading the packs whole: a
 * commit's files, not a repository's (for those, the packs are read in a few reads).
 */
const PLACED_KEYS = 256;

export type { FactsEntry, FactsKey } from './facts-cache-format.js';

/**
 * Facts by content: a file's facts depend only on its bytes (its git blob id), its language and
 * ANALYZER_VERSION, so a file is never parsed twice. A cache miss only costs a parse, so every
 * doubtful entry (bad checksum, truncated, a link or another user's file in its place) is a
 * miss, and is deleted.
 */
export interface FactsCache {
  get(blobSha: string, language: Language): Promise<FileFacts | undefined>;
  /** Stores one entry as a file of its own: for the few files a commit changes. */
  put(blobSha: string, language: Language, facts: FileFacts): Promise<void>;
  /** The facts of each key, in the same order (undefined for a miss). */
  getMany(keys: readonly FactsKey[]): Promise<(FileFacts | undefined)[]>;
  /** Stores many entries as one pack: for a whole-repository run. */
  putMany(entries: readonly FactsEntry[]): Promise<void>;
  /**
   * putMany for entries that come one by one: each is encoded when added, so a run whose facts
   * arrive from worker threads encodes them on this thread while the workers still parse.
   */
  startPack(): PackBuilder;
}

/**
 * A pack being filled: nothing is stored until `write`. `add` never throws (it is called from
 * worker message handlers): an entry it cannot encode makes `write` reject instead.
 */
export interface PackBuilder {
  add(entry: FactsEntry): void;
  write(): Promise<void>;
}

/**
 * The facts cache in AUREUS's cache folder `cacheDir` (cache-dir.ts), under `facts/`: keyed by
 * content, so one cache serves every repository of the user. Created on first use; a folder
 * that is a link, or that others may write, is refused, and so is an entry that is not a regular
 * file of this user. Without a folder (caching off) it holds nothing and keeps nothing.
 *
 * Two layouts, chosen by measurement (test/memory/support/facts-cache-measure.mjs, 5,000
 * entries of ~2.8 KB, ext4, 2 cores, medians over runs): loose files, one atomic fsynced file
 * per entry, took 1.4–2.0 s to write and 0.42–0.49 s to read back; one pack took 0.17–0.19 s
 * and 0.19–0.30 s. So whole-repository
 * runs write one pack per run (JSON Lines, a checksum per line) and read all packs in a few
 * reads; single entries stay loose files. Both are found by `get` and `getMany`.
 *
 * Writes are atomic (temp file + rename), so concurrent runs writing the same key both succeed
 * and a reader sees a whole entry or none. They are not fsynced (the figures above were): every
 * line carries its checksum, so what a crash leaves half-written is a miss. The pack index is
 * read once per cache object: make one per run. Failures other than a missing or doubtful entry
 * (EACCES, ENOSPC) are thrown: the caller may treat them as misses. Entries read once are kept
 * decoded for the cache object's life: share one between the analyses of a single check.
 */
export function createFactsCache(cacheDir: string | undefined): FactsCache {
  if (cacheDir === undefined) return NO_FACTS_CACHE;
  const folders = factsCacheFolders(cacheDir);
  let packs: Promise<PackIndex> | undefined;
  const packIndex = (): Promise<PackIndex> => {
    packs ??= folders.packsDir().then(readPacks);
    return packs;
  };

  // Decoded entries of this run: a check analyses its base and its head, which share nearly
  // every file, and each entry is read and decoded once for both.
  const decoded = new Map<string, FileFacts>();
  const remember = (key: string, facts: FileFacts | undefined): FileFacts | undefined => {
    if (facts !== undefined) decoded.set(key, facts);
    return facts;
  };

  const looseFile = async (blobSha: string, key: string): Promise<string> =>
    join(await folders.shardDir(blobSha), `${key}.json`);

  const getLoose = async (blobSha: string, key: string): Promise<FileFacts | undefined> => {
    const shard = await folders.existingShardDir(blobSha);
    if (shard === undefined) return undefined;
    const path = join(shard, `${key}.json`);
    const found = await readCacheFile(path);
    if (found.kind === 'missing') return undefined;
    const facts = found.kind === 'refused' ? undefined : decodeEntry(found.text, key);
    if (facts === undefined) await rm(path, { force: true });
    return remember(key, facts);
  };

  const getPacked = async (key: string): Promise<FileFacts | undefined> => {
    const index = await packIndex();
    // Asked after the wait: the other analysis of the run may have decoded it meanwhile.
    const known = decoded.get(key);
    if (known !== undefined) return known;
    const line = index.lines.get(key);
    if (line === undefined) return undefined;
    const facts = decodeEntry(line.toString('utf8'), key);
    // A bad line stays in its pack until the next merge leaves it out; here it is a miss.
    if (facts === undefined) index.lines.delete(key);
    return remember(key, facts);
  };

  const startPack = (): PackBuilder => {
    // Encoded to bytes once: the pack is written from them and the index keeps them.
    const lines = new Map<string, Buffer>();
    let failure: unknown;
    return {
      add: ({ blobSha, language, facts }) => {
        try {
          const key = entryKey(blobSha, language);
          lines.set(key, Buffer.from(encodeEntry(key, facts)));
        } catch (error) {
          failure ??= error;
        }
      },
      write: async () => {
        if (failure !== undefined) throw failure;
        const directory = await folders.packsDir();
        // Read before writing, so that `files` counts the packs that were there already.
        const index = await packIndex();
        await writePack(directory, [...lines.values()]);
        for (const [key, line] of lines) index.lines.set(key, line);
        if (index.files.length + 1 > MAX_PACKS) {
          packs = undefined;
          await mergePacks(directory, await readPacks(directory));
        }
        // A whole-repository run, now and then: the time to drop what an upgrade left behind.
        await removeStaleSiblings(dirname(await folders.versionDir()), VERSION_FOLDER);
      },
    };
  };

  return {
    get: async (blobSha, language) => {
      const key = entryKey(blobSha, language);
      return (await getLoose(blobSha, key)) ?? (await getPacked(key));
    },
    put: async (blobSha, language, facts) => {
      const key = entryKey(blobSha, language);
      await writeCacheFile(await looseFile(blobSha, key), `${encodeEntry(key, facts)}\n`);
      remember(key, facts);
    },
    getMany: async (keys) => {
      const named = keys.map(({ blobSha, language }) => ({
        blobSha,
        key: entryKey(blobSha, language),
      }));
      const found: (FileFacts | undefined)[] = named.map(({ key }) => decoded.get(key));
      const misses = () =>
        named.flatMap((_entry, index) => (found[index] === undefined ? [index] : []));
      // Only the misses cost an open each; a bounded number at a time, to stay clear of EMFILE.
      const readLoose = async () => {
        const loose = misses();
        for (let start = 0; start < loose.length; start += PARALLEL_READS) {
          await Promise.all(
            loose.slice(start, start + PARALLEL_READS).map(async (index) => {
              const entry = named[index];
              if (entry !== undefined) found[index] = await getLoose(entry.blobSha, entry.key);
            }),
          );
        }
      };
      // A few entries (the files a change touches), the packs not read yet: their lines only,
      // through the packs' places, then the loose entries; the whole packs for what remains.
      const fewFirst = packs === undefined && named.length <= PLACED_KEYS;
      if (fewFirst) {
        const wanted = misses();
        const placed = await readPlacedLines(
          await folders.packsDir(),
          new Set(wanted.map((index) => named[index]?.key ?? '')),
        );
        for (const index of wanted) {
          const key = named[index]?.key ?? '';
          const line = placed.get(key);
          if (line !== undefined)
            found[index] = remember(key, decodeEntry(line.toString('utf8'), key));
        }
        await readLoose();
      }
      for (const index of misses()) found[index] = await getPacked(named[index]?.key ?? '');
      if (!fewFirst) await readLoose();
      return found;
    },
    putMany: async (entries) => {
      const pack = startPack();
      for (const entry of entries) pack.add(entry);
      await pack.write();
    },
    startPack,
  };
}

/** The cache of a run with caching off. */
const NO_FACTS_CACHE: FactsCache = {
  get: async () => undefined,
  put: async () => undefined,
  getMany: async (keys) => keys.map(() => undefined),
  putMany: async () => undefined,
  startPack: () => ({ add: () => undefined, write: async () => undefined }),
};
