import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileFacts } from '../model/facts.js';
import { bundledWorker } from './bundled-worker.js';
import type { ScriptBatchResult, ScriptJob } from './facts-worker.js';

const WORKER_FILE = 'facts-worker.mjs';

/**
 * Below this much TS/JS text one thread wins (bench/analysis.mjs, 2 cores): a worker takes
 * ~100 ms to start, load oxc and warm up its compiled code, and threads of one process slow
 * each other down (V8 shares its helper threads among them), so two threads read 3 MB (zod)
 * barely faster than one and 0.8 MB (rxjs) 70 ms slower; 19 MB (effect) 15 % faster.
 */
const MIN_PARALLEL_CHARACTERS = 2_000_000;
/** A batch is answered at once: small enough for a smooth progress bar, large enough to be cheap. */
const BATCH_CHARACTERS = 200_000;
/** More threads than this stop paying: the parent decodes every answer on its own thread. */
const MAX_THREADS = 8;

/** For tests: the worker to start and the least text worth starting one for. */
export interface WorkerTuning {
  readonly workerFile?: URL;
  readonly minCharacters?: number;
}

/** Workers parsing TS/JS files; `stop` ends them (call it in every case, it is idempotent). */
export interface ScriptParsing {
  /**
   * The facts by job index once every worker has answered or stopped. A job missing from it
   * (its extraction threw, or its worker died) is the caller's to parse on its own thread.
   */
  readonly facts: Promise<ReadonlyMap<number, FileFacts>>;
  /** How many workers were started. */
  readonly threads: number;
  stop(): void;
}

/** Worker threads for TS/JS, started before their work is known; `stop` is idempotent. */
export interface ScriptWorkers {
  readonly threads: number;
  /**
   * Hands `jobs` to the workers, once: each gets its share up front (see ScriptParsing).
   * `onAnswered` gets the facts of each batch as it comes back.
   */
  parse(
    jobs: readonly ScriptJob[],
    onAnswered: (answers: ScriptBatchResult['facts']) => void,
  ): ScriptParsing;
  stop(): void;
}

/** Whether about `characters` of TS/JS text are worth worker threads on this machine. */
export function worthWorkers(characters: number, tuning: WorkerTuning = {}): boolean {
  return characters >= (tuning.minCharacters ?? MIN_PARALLEL_CHARACTERS) && threadCount() >= 2;
}

/** One worker per core, at most MAX_THREADS. */
function threadCount(): number {
  return Math.min(availableParallelism(), MAX_THREADS);
}

/**
 * Parses TS/JS files with oxc on worker threads, one per core, so that a whole-repository run
 * uses the machine: oxc's parse and its tree's decoding are synchronous JavaScript-side work
 * that one thread does one file at a time. Undefined when one thread is the better choice (one
 * core, little text) or no worker was built (the Action's bundle). The workers start at once:
 * started as soon as the size of the text is known, they boot (~100 ms: a thread, the bundle,
 * oxc's binary) while git still streams the texts. Each worker gets its share up front (largest
 * files first, to the least loaded), so a parent busy with other work (the other languages,
 * loading TypeScript for resolution) never leaves a worker waiting.
 */
export function startScriptWorkers(
  characters: number,
  tuning: WorkerTuning = {},
): ScriptWorkers | undefined {
  const file = tuning.workerFile ?? bundledWorker(WORKER_FILE);
  if (!worthWorkers(characters, tuning) || file === undefined) return undefined;
  const workers = startWorkers(file, threadCount());
  if (workers === undefined) return undefined;
  const stop = () => {
    for (const worker of workers) void worker.terminate();
  };
  return {
    threads: workers.length,
    stop,
    parse(jobs, onAnswered) {
      const facts = new Map<number, FileFacts>();
      const answers = shares(jobs, workers.length).map((share, index) => {
        const worker = workers[index];
        if (worker === undefined) return Promise.resolve();
        const batches = batchesOf(share);
        for (const batch of batches) worker.postMessage(batch);
        return collectAnswers(worker, batches.length, (result) => {
          for (const [job, fileFacts] of result.facts) facts.set(job, fileFacts);
          onAnswered(result.facts);
        });
      });
      return {
        facts: Promise.all(answers).then(() => {
          stop();
          return facts;
        }),
        threads: workers.length,
        stop,
      };
    },
  };
}

/**
 * `count` workers, or none: a worker that cannot be started (no thread left for the process,
 * say) leaves the whole run to this thread, and the ones already started are ended.
 */
function startWorkers(file: URL, count: number): Worker[] | undefined {
  const started: Worker[] = [];
  try {
    for (let i = 0; i < count; i += 1) started.push(new Worker(file));
    return started;
  } catch {
    for (const worker of started) void worker.terminate();
    return undefined;
  }
}

/** Resolves after `expected` answers, or as soon as the worker fails or exits: never rejects. */
function collectAnswers(
  worker: Worker,
  expected: number,
  onResult: (result: ScriptBatchResult) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let answered = 0;
    if (expected === 0) resolve();
    worker.on('message', (result: ScriptBatchResult) => {
      onResult(result);
      answered += 1;
      if (answered === expected) resolve();
    });
    // What a dead worker did not answer is parsed by the parent, with the parent's own errors.
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
}

/** `count` shares of about equal text: each file, largest first, to the lightest share. */
function shares(jobs: readonly ScriptJob[], count: number): ScriptJob[][] {
  const bins = Array.from({ length: count }, () => ({ size: 0, jobs: [] as ScriptJob[] }));
  const largestFirst = [...jobs].sort((a, b) => b.text.length - a.text.length);
  for (const job of largestFirst) {
    const lightest = bins.reduce((min, bin) => (bin.size < min.size ? bin : min));
    lightest.jobs.push(job);
    lightest.size += job.text.length;
  }
  return bins.map((bin) => bin.jobs).filter((share) => share.length > 0);
}

function batchesOf(share: readonly ScriptJob[]): ScriptJob[][] {
  const batches: ScriptJob[][] = [];
  let current: ScriptJob[] = [];
  let size = 0;
  for (const job of share) {
    current.push(job);
    size += job.text.length;
    if (size >= BATCH_CHARACTERS) {
      batches.push(current);
      current = [];
      size = 0;
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
