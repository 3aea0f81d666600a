import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Resolution } from '../analysis/resolve/resolution.js';
import { bundledWorker } from './bundled-worker.js';
import type { ResolutionFiles } from './repository-source.js';

/** One import to resolve: the importing file (repository-relative) and what it imports. */
export interface ImportRequest {
  readonly from: string;
  readonly specifier: string;
}

/** An import's answer, and the paths it depends on (see Resolver.watched). */
export interface ResolvedRequest extends ImportRequest {
  readonly resolution: Resolution;
  readonly watched: readonly string[];
}

/**
 * What this thread sends the worker (resolve-worker.ts), in this order: the files once, then
 * requests; a flush at the end.
 */
export type ToResolveWorker =
  | { readonly kind: 'files'; readonly files: ResolutionFiles }
  | { readonly kind: 'resolve'; readonly requests: readonly ImportRequest[] }
  | { readonly kind: 'flush' };

/** The answers to each `resolve` in turn; `flushed` once all before the flush are answered. */
export type FromResolveWorker =
  | { readonly kind: 'answers'; readonly answers: readonly ResolvedRequest[] }
  | { readonly kind: 'flushed' }
  | { readonly kind: 'failed' };

const WORKER_FILE = 'resolve-worker.mjs';

/**
 * Below this much TS/JS text for this thread to parse, loading TypeScript here costs about what
 * a worker does: the worker needs ~130 ms to start and load TypeScript, about the time oxc takes
 * to read 0.5 MB. Above it the worker gains: rxjs's 0.8 MB (bench/analysis.mjs) went from a
 * median of ~465 ms to ~410 ms cold on 2 cores (less than the ~100 ms TypeScript takes to load:
 * two threads of one process slow each other down).
 */
const MIN_PARSED_CHARACTERS = 500_000;

const require = createRequire(import.meta.url);

/** A worker thread that loads TypeScript and resolves imports while this thread parses. */
export interface ResolverThread {
  /** What the answers are computed over: once, before or after the first `ask`. */
  load(files: ResolutionFiles): void;
  /** Imports to answer (the caller asks each once). */
  ask(requests: readonly ImportRequest[]): void;
  /**
   * Every answer, once all that were asked are in (`complete`); or those that came before the
   * thread failed, ended, or never got its files (not `complete`): the rest is the caller's to
   * answer, where the same failure is met and reported. Ends the thread.
   */
  settle(): Promise<{ readonly answers: readonly ResolvedRequest[]; readonly complete: boolean }>;
  /** Ends the thread (idempotent): call it in every case. */
  stop(): void;
}

/**
 * Whether to resolve on a worker thread while this one parses about `characters` of TS/JS: when
 * that parse hides the worker's start, the machine has a core for it, and this thread has not
 * loaded TypeScript already (a long-running App, after its first check).
 */
export function worthResolverThread(characters: number): boolean {
  return characters >= MIN_PARSED_CHARACTERS && availableParallelism() >= 2 && !typeScriptLoaded();
}

function typeScriptLoaded(): boolean {
  try {
    return require.cache[require.resolve('typescript')] !== undefined;
  } catch {
    return false;
  }
}

/**
 * The worker, started at once so that TypeScript loads while this thread parses; undefined
 * where none was built (the Action's bundle) or none can start: resolution then stays here.
 */
export function startResolverThread(
  workerFile = bundledWorker(WORKER_FILE),
): ResolverThread | undefined {
  if (workerFile === undefined) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(workerFile);
  } catch {
    return undefined;
  }
  const post = (message: ToResolveWorker) => worker.postMessage(message);
  const answers: ResolvedRequest[] = [];
  const waiting: ImportRequest[] = [];
  let loaded = false;
  let finish: (complete: boolean) => void = () => {};
  const end = new Promise<boolean>((resolve) => {
    finish = resolve;
  });
  worker.on('message', (message: FromResolveWorker) => {
    if (message.kind === 'answers') for (const answer of message.answers) answers.push(answer);
    else finish(message.kind === 'flushed');
  });
  worker.on('error', () => finish(false));
  worker.on('exit', () => finish(false));
  const stop = () => void worker.terminate();
  return {
    load(files) {
      if (loaded) return;
      loaded = true;
      post({ kind: 'files', files });
      if (waiting.length > 0) post({ kind: 'resolve', requests: waiting.splice(0) });
    },
    ask(requests) {
      if (requests.length === 0) return;
      if (loaded) post({ kind: 'resolve', requests });
      else for (const request of requests) waiting.push(request);
    },
    async settle() {
      if (loaded) post({ kind: 'flush' });
      else finish(false);
      const complete = await end;
      stop();
      return { answers, complete };
    },
    stop,
  };
}
