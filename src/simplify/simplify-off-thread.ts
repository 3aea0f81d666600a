import { Worker } from 'node:worker_threads';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { bundledWorker } from '../scan/bundled-worker.js';
import type { SimplifyResult } from './simplify-repository.js';
import type { SimplifyWorkerInput } from './simplify-worker.js';

const WORKER_FILE = 'simplify-worker.mjs';

/**
 * Reflexion in a worker thread, for the App: type-checking a project is one long synchronous
 * call, and on the App's own thread it would keep webhooks from being answered within GitHub's
 * ten seconds (THREATS row 3). The worker is ended after `timeoutMs`, and its heap is bounded.
 */
export function simplifyOffThread(
  root: string,
  policy: Policy,
  only: ReadonlySet<string>,
  timeoutMs: number,
): Promise<SimplifyResult> {
  const input: SimplifyWorkerInput = { root, policy, only: [...only] };
  const worker = new Worker(workerFile(), {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: 2048 },
  });
  return new Promise<SimplifyResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(
        new AureusError(
          `reflexion took longer than ${timeoutMs / 1000} s and was stopped.`,
          'run the AUREUS Action, or aureus simplify on a checkout, for this pull request.',
        ),
      );
    }, timeoutMs);
    worker.once('message', (result: SimplifyResult) => {
      clearTimeout(timer);
      resolve(result);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the reflexion worker stopped (exit code ${code}) without a result.`));
    });
  });
}

function workerFile(): URL {
  const found = bundledWorker(WORKER_FILE);
  if (found === undefined)
    throw new AureusError(
      `the reflexion worker (${WORKER_FILE}) is missing beside the AUREUS bundle.`,
      'build AUREUS (npm run build) or reinstall it.',
    );
  return found;
}
