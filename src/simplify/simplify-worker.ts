import { parentPort, workerData } from 'node:worker_threads';
import type { Policy } from '../model/policy.js';
import { SIMPLIFICATION_PASSES } from '../reflexion/pass-catalog.js';
import { simplifyRepository } from './simplify-repository.js';

/** What simplify-off-thread.ts hands the worker. */
export interface SimplifyWorkerInput {
  readonly root: string;
  readonly policy: Policy;
  readonly only: readonly string[];
}

// The worker's entry (bundled as dist/cli-bundle/simplify-worker.mjs): one reflexion run, its
// result posted back. A failure ends the worker with the error, which the parent reports.
const input = workerData as SimplifyWorkerInput;
const result = await simplifyRepository(input.root, input.policy, SIMPLIFICATION_PASSES, {
  changedOnly: false,
  only: new Set(input.only),
  apply: false,
  test: false,
});
parentPort?.postMessage(result);
