import { createFactsCache, type FactsCache, type FactsEntry } from '../memory/facts-cache.js';
import type { FileFacts, Language } from '../model/facts.js';
import {
  createFactParser,
  isScript,
  type ParserChoice,
  parsesScriptsWithOxc,
} from './fact-parsers.js';
import type { ScriptJob } from './facts-worker.js';
import { type ScriptWorkers, startScriptWorkers, worthWorkers } from './parse-in-workers.js';
import type { RepositorySource, UnreadableFile } from './repository-source.js';
import type { SnapshotFile } from './working-tree-snapshot.js';

export interface SourceFile extends SnapshotFile {
  readonly language: Language;
}

export interface CollectedFacts {
  readonly facts: ReadonlyMap<string, FileFacts>;
  readonly parsed: number;
  readonly cached: number;
  /** The threads that parsed: more than one when TS/JS went to worker threads. */
  readonly parseThreads: number;
  /** Files that have no facts, and why (binary, over the size cap, unreadable). */
  readonly skipped: ReadonlyArray<{ readonly path: string; readonly reason: string }>;
  /** The skipped files whose bytes the source could not give: their side is incomplete. */
  readonly unreadable: readonly UnreadableFile[];
}

export interface CollectOptions {
  readonly parser: ParserChoice;
  /** False when the cache cannot be trusted: everything is parsed and nothing is stored. */
  readonly useCache: boolean;
  readonly onProgress?: (done: number, total: number) => void;
  /** A cache shared with other analyses of the same run; else one of its own. */
  readonly factsCache?: FactsCache | undefined;
  /**
   * Work to start while parsing goes on (loading what comes next): called before this thread
   * parses, and awaited before the facts are returned; in a run this thread parses alone, also
   * as soon as that is known, while git still reads the texts, with the characters of TS/JS it
   * will parse. So it must be idempotent, and must not reject: it only prepares, and whatever it
   * failed at fails again where it counts.
   */
  readonly whileParsing?: ((parsedHere?: number) => Promise<void>) | undefined;
  /** Each parsed file's facts as soon as they are known (worker threads may still be parsing). */
  readonly onParsed?: ((path: string, facts: FileFacts) => void) | undefined;
}

/** Beyond this many new entries one pack file is written instead of a file per entry. */
const PACK_THRESHOLD = 50;

/**
 * Facts for every file: from the cache by blob id, else read from the source (only the misses)
 * and parsed, then cached.
 */
export async function collectFacts(
  source: RepositorySource,
  files: readonly SourceFile[],
  options: CollectOptions,
): Promise<CollectedFacts> {
  const cache = options.factsCache ?? createFactsCache(source.cacheDir);
  // A file the working tree could not give (a FIFO where git tracks a file) has no blob id:
  // nothing to look up, and its read says why.
  const keyed = options.useCache ? files.filter((file) => file.blobSha !== '') : [];
  const keys = keyed.map(({ blobSha, language }) => ({ blobSha, language }));
  const cachedFacts = keys.length > 0 ? await cache.getMany(keys) : [];
  const hits = new Map<SourceFile, FileFacts>();
  keyed.forEach((file, index) => {
    const hit = cachedFacts[index];
    if (hit !== undefined) hits.set(file, hit);
  });
  const facts = new Map<string, FileFacts>();
  const misses: SourceFile[] = [];
  for (const file of files) {
    const hit = hits.get(file);
    if (hit === undefined) misses.push(file);
    else facts.set(file.path, hit);
  }
  const total = files.length;
  options.onProgress?.(facts.size, total);

  // A run this thread parses alone: what it prepares for later (TypeScript, for resolution)
  // loads now, while git is still reading the texts, rather than after the parse.
  const workers = workersOnceSized(options.parser, (bytes) => void options.whileParsing?.(bytes));
  try {
    const texts = await readTexts(source, misses, workers);
    const found = { cache, facts, total, missed: misses.length };
    return await parseAndStore(texts, found, options, await workers.started());
  } finally {
    workers.stop();
  }
}

/** The parse of what was read and the facts found so far: the rest of a collection. */
async function parseAndStore(
  texts: readonly TextRead[],
  found: { cache: FactsCache; facts: Map<string, FileFacts>; total: number; missed: number },
  options: CollectOptions,
  workers: ScriptWorkers | undefined,
): Promise<CollectedFacts> {
  const { cache, facts, total } = found;
  const skipped = texts.flatMap((read) =>
    read.text === undefined ? [{ path: read.file.path, reason: read.reason }] : [],
  );
  const unreadable = texts.flatMap((read) =>
    read.text === undefined && read.problem !== undefined
      ? [{ path: read.file.path, problem: read.problem }]
      : [],
  );
  let done = facts.size + skipped.length;
  // Without a trusted cache nothing is stored either: the next run must not trust this one.
  // Many new entries go to one pack, encoded as each file's facts come (from the workers, while
  // they still parse); a few are files of their own, written at the end.
  const readable = texts.filter((read) => read.text !== undefined).length;
  const pack = options.useCache && readable >= PACK_THRESHOLD ? cache.startPack() : undefined;
  const { parsed, threads } = await parseTexts(texts, options, workers, (index, fileFacts) => {
    const { file } = texts[index] ?? {};
    if (file !== undefined) {
      pack?.add({ blobSha: file.blobSha, language: file.language, facts: fileFacts });
      options.onParsed?.(file.path, fileFacts);
    }
    done += 1;
    options.onProgress?.(done, total);
  });
  const fresh: FactsEntry[] = [];
  for (const [index, { file }] of texts.entries()) {
    const fileFacts = parsed.get(index);
    if (fileFacts === undefined) continue;
    facts.set(file.path, fileFacts);
    fresh.push({ blobSha: file.blobSha, language: file.language, facts: fileFacts });
  }
  if (pack !== undefined) await pack.write();
  else if (options.useCache) await storeLoose(cache, fresh);
  return {
    facts,
    parsed: fresh.length,
    cached: total - found.missed,
    parseThreads: threads,
    skipped,
    unreadable,
  };
}

/**
 * Each read file's facts by its index in `texts`: TS/JS on worker threads when oxc reads them
 * and the run is large enough, the rest (and anything a worker did not answer) on this thread.
 */
async function parseTexts(
  texts: readonly TextRead[],
  options: CollectOptions,
  workers: ScriptWorkers | undefined,
  onParsed: (index: number, facts: FileFacts) => void,
): Promise<{ parsed: Map<number, FileFacts>; threads: number }> {
  const jobs = scriptJobs(texts);
  const parse = await createFactParser(options.parser, jobs.length);
  const inWorkers =
    jobs.length > 0
      ? workers?.parse(jobs, (answers) => {
          for (const [index, facts] of answers) onParsed(index, facts);
        })
      : undefined;
  const parsed = new Map<number, FileFacts>();
  const parseHere = async (index: number, language: Language, text: string) => {
    const facts = await parse(language, text);
    parsed.set(index, facts);
    onParsed(index, facts);
  };
  try {
    // Started before this thread's own parsing: the workers already have all their work.
    const own = options.whileParsing?.();
    for (const [index, { file, text }] of texts.entries()) {
      if (text === undefined || (inWorkers !== undefined && isScript(file.language))) continue;
      await parseHere(index, file.language, text);
    }
    await own;
    const fromWorkers = (await inWorkers?.facts) ?? new Map<number, FileFacts>();
    for (const [index, { file, text }] of texts.entries()) {
      if (text === undefined || parsed.has(index)) continue;
      const answered = fromWorkers.get(index);
      if (answered === undefined) await parseHere(index, file.language, text);
      else parsed.set(index, answered);
    }
  } finally {
    inWorkers?.stop();
  }
  return { parsed, threads: inWorkers?.threads ?? 1 };
}

function scriptJobs(texts: readonly TextRead[]): ScriptJob[] {
  return texts.flatMap(({ file, text }, index) =>
    text !== undefined && isScript(file.language) ? [{ index, language: file.language, text }] : [],
  );
}

/**
 * Worker threads for the TS/JS to parse, decided once, at the first size known: started at
 * once when the text is worth them and oxc reads it. Asks about oxc only then: loading its
 * native binding is wasted on a run with little or nothing to parse.
 */
type WorkersOnceSized = ReturnType<typeof workersOnceSized>;

function workersOnceSized(parser: ParserChoice, oneThread: (bytes: number) => void) {
  let decided: Promise<ScriptWorkers | undefined> | undefined;
  return {
    sizedAt(bytes: number | undefined): void {
      if (bytes === undefined || decided !== undefined) return;
      if (worthWorkers(bytes)) {
        decided = parsesScriptsWithOxc(parser).then(
          (oxc) => (oxc ? startScriptWorkers(bytes) : undefined),
          () => undefined,
        );
      } else {
        decided = Promise.resolve(undefined);
        oneThread(bytes);
      }
    },
    started: () => decided ?? Promise.resolve(undefined),
    stop(): void {
      void decided?.then((workers) => workers?.stop());
    },
  };
}

/** The bytes of TS/JS to parse, when the listing gave every size; else undefined. */
function listedScriptBytes(files: readonly SourceFile[]): number | undefined {
  let bytes = 0;
  for (const file of files) {
    if (!isScript(file.language)) continue;
    const size = file.text?.length ?? file.size;
    if (size === undefined) return undefined;
    bytes += size;
  }
  return bytes;
}

/** The bytes of TS/JS to parse: the texts at hand, and the sizes the source gave for `unread`. */
function scriptBytes(
  files: readonly SourceFile[],
  unread: readonly SourceFile[],
  sizes: readonly (number | undefined)[],
): number {
  let bytes = 0;
  for (const file of files) if (isScript(file.language)) bytes += file.text?.length ?? 0;
  unread.forEach((file, index) => {
    if (isScript(file.language)) bytes += sizes[index] ?? 0;
  });
  return bytes;
}

async function storeLoose(cache: FactsCache, fresh: readonly FactsEntry[]): Promise<void> {
  await Promise.all(fresh.map((entry) => cache.put(entry.blobSha, entry.language, entry.facts)));
}

type TextRead =
  | { file: SourceFile; text: string }
  | { file: SourceFile; text: undefined; reason: string; problem?: string | undefined };

/**
 * The misses' texts. The workers are sized by the listing (a commit's files), else by the
 * source once it knows (git, before the contents stream), else by the texts: so they boot
 * while the texts are read.
 */
async function readTexts(
  source: RepositorySource,
  files: readonly SourceFile[],
  workers: WorkersOnceSized,
): Promise<TextRead[]> {
  workers.sizedAt(listedScriptBytes(files));
  const unread = files.filter((file) => file.text === undefined);
  const blobs =
    unread.length === 0
      ? []
      : await source.readBlobs(unread, (sizes) =>
          workers.sizedAt(scriptBytes(files, unread, sizes)),
        );
  const blobOf = new Map(unread.map((file, index) => [file.path, blobs[index]]));
  const texts = files.map((file): TextRead => {
    if (file.text !== undefined) return { file, text: file.text };
    const blob = blobOf.get(file.path);
    const version = blob?.version;
    if (version?.kind === 'text' && version.text !== undefined) return { file, text: version.text };
    const missing = version === undefined || version.kind === 'unreadable';
    const problem = blob?.problem ?? (missing ? 'its blob could not be read' : undefined);
    return { file, text: undefined, reason: version?.kind ?? 'unreadable', problem };
  });
  workers.sizedAt(scriptJobs(texts).reduce((sum, job) => sum + job.text.length, 0));
  return texts;
}
