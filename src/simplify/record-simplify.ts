import type { Spent } from '../llm/spend.js';
import { appendToJournal } from '../memory/journal.js';
import { ensureLocalDir, storePaths } from '../memory/store-paths.js';
import type { JsonObject } from '../model/json.js';
import type { SimplifyResult } from './simplify-repository.js';

/** Dropped proposals kept per record: their reasons are what the passes learn from. */
const MAX_RECORDED_DROPS = 50;

/** Appends one `simplify` record to this machine's ledger, beside the `check` records. */
export async function recordSimplify(
  root: string,
  result: SimplifyResult,
  toolVersion: string,
  modelSpend?: Spent,
): Promise<void> {
  await ensureLocalDir(root);
  await appendToJournal(storePaths(root).ledger, simplifyRecord(result, toolVersion, modelSpend));
}

/** `modelSpend`, when the model was asked, is what cost_thresholds.max_usd_per_day sums. */
export function simplifyRecord(
  result: SimplifyResult,
  toolVersion: string,
  modelSpend?: Spent,
): JsonObject {
  const { metrics, applied } = result;
  const drops = [...result.dropped, ...applied.notKept];
  return {
    kind: 'simplify',
    files: result.scope.length,
    verified: result.verified.length,
    kept: applied.kept.length,
    written: applied.written,
    dropped: drops.length,
    deferred: result.deferred.length,
    drops: drops.slice(0, MAX_RECORDED_DROPS).map(({ proposal, reason }) => ({
      pass: proposal.pass,
      at: `${proposal.path}:${proposal.line}`,
      reason,
    })),
    failedPasses: result.failedPasses.map(({ pass, error }) => ({ pass, error })),
    metrics: { ...metrics },
    ...(modelSpend === undefined ? {} : { modelSpend: { ...modelSpend } }),
    toolVersion,
  };
}
