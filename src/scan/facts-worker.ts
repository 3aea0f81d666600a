import { parentPort } from 'node:worker_threads';
import { extractOxcFacts } from '../analysis/oxc/oxc-facts.js';
import type { ScriptLanguage } from '../analysis/oxc/parse-program.js';
import type { FileFacts } from '../model/facts.js';
import { tooDeepAt } from './nesting-depth.js';

/** One TS/JS file to read, numbered by the parent. */
export interface ScriptJob {
  readonly index: number;
  readonly language: ScriptLanguage;
  readonly text: string;
}

/** The answer to one batch: the facts of each job whose extraction did not throw. */
export interface ScriptBatchResult {
  readonly facts: ReadonlyArray<readonly [number, FileFacts]>;
}

// The worker's entry (bundled as dist/cli-bundle/facts-worker.mjs, started by
// parse-in-workers.ts): it answers each batch in the order they come. A file whose extraction
// throws, or that has a syntax error (whose facts are TypeScript's parser's: fact-parsers.ts),
// is left out of the answer, and the parent parses it on its own thread: the error (or the
// facts) is then exactly what a run without workers gives.
parentPort?.on('message', (jobs: readonly ScriptJob[]) => {
  const facts: Array<readonly [number, FileFacts]> = [];
  for (const job of jobs) {
    // Too deep to parse without overflowing the native stack: the parent says so for it.
    if (tooDeepAt(job.text, job.language !== 'typescript') !== null) continue;
    try {
      const found = extractOxcFacts(job.text, job.language);
      if (found.diagnostics.length === 0) facts.push([job.index, found]);
    } catch {
      // Left to the parent (above).
    }
  }
  parentPort?.postMessage({ facts } satisfies ScriptBatchResult);
});
