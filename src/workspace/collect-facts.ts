import { readBlobs } from '../git/index.js';
import { createFactsCache, type FactsCache, type FactsEntry } from '../memory/facts-cache.js';
import type { FileFacts, Language } from '../model/facts.js';
import {
  createFactParser,
  isScript,
  type ParserChoice,
  usesTypeScriptParser,
} from './fact-parsers.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

export interface SourceFile extends SnapshotFile {
  readonly language: Language;
}

export interface CollectedFacts {
  readonly facts: ReadonlyMap<string, FileFacts>;
  readonly parsed: number;
  readonly cached: number;
  /** Files that have no facts, and why (binary, over the size cap, unreadable). */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>;
}

export interface CollectOptions {
  readonly parser: ParserChoice;
  /** False when the cache cannot be trusted: everything is parsed and nothing is stored. */
  readonly useCache: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  /** A cache shared with other analyses of the same run; else one of its own. */
  readonly factsCache?: FactsCache | undefined;
}

/** Beyond this many new entries one pack file is written instead of a file per entry. */
const PACK_THRESHOLD = 50;

/** Facts for every file: from the cache by blob id, else parsed and then cached. */
export async function collectFacts(
  root: string,
  files: readonly SourceFile[],
  options: CollectOptions,
): Promise<CollectedFacts> {
  const cache = options.factsCache ?? createFactsCache(root);
  const keys = files.map(({ blobSha, language }) => ({ blobSha, language }));
  const cachedFacts = options.useCache ? await cache.getMany(keys) : [];
  const facts = new Map<string, FileFacts>();
  const misses: SourceFile[] = [];
  files.forEach((file, index) => {
    const hit = cachedFacts[index];
    if (hit === undefined) misses.push(file);
    else facts.set(file.path, hit);
  });
  const total = files.length;
  options.onProgress?.(facts.size, total);

  const texts = await readTexts(root, misses);
  const skipped = texts.flatMap((read) =>
    read.text === undefined ? [{ path: read.file.path, reason: read.reason }] : [],
  );
  const scripts = texts.filter(
    ({ file, text }) => text !== undefined && isScript(file.language),
  ).length;
  const parse = await createFactParser(usesTypeScriptParser(options.parser, scripts));
  const fresh: FactsEntry[] = [];
  for (const { file, text } of texts) {
    if (text === undefined) continue;
    const fileFacts = await parse(file.language, text);
    facts.set(file.path, fileFacts);
    fresh.push({ blobSha: file.blobSha, language: file.language, facts: fileFacts });
    options.onProgress?.(facts.size + skipped.length, total);
  }
  // Without a trusted cache nothing is stored either: the next run must not trust this one.
  if (options.useCache) await storeFacts(cache, fresh);
  return { facts, parsed: fresh.length, cached: total - misses.length, skipped };
}

async function storeFacts(cache: FactsCache, fresh: readonly FactsEntry[]): Promise<void> {
  if (fresh.length >= PACK_THRESHOLD) await cache.putMany(fresh);
  else for (const entry of fresh) await cache.put(entry.blobSha, entry.language, entry.facts);
}

type TextRead =
  | { file: SourceFile; text: string }
  | { file: SourceFile; text: undefined; reason: string };

async function readTexts(root: string, files: readonly SourceFile[]): Promise<TextRead[]> {
  const unread = files.filter((file) => file.text === undefined);
  const versions = unread.length === 0 ? [] : await readBlobs(root, unread);
  const versionOf = new Map(unread.map((file, index) => [file.path, versions[index]]));
  return files.map((file): TextRead => {
    if (file.text !== undefined) return { file, text: file.text };
    const version = versionOf.get(file.path);
    if (version?.kind === 'text' && version.text !== undefined) return { file, text: version.text };
    return { file, text: undefined, reason: version?.kind ?? 'unreadable' };
  });
}
