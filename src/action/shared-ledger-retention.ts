import * as core from '@actions/core';
import type { GitHubClient } from '../github/github-client.js';
import type { RepositoryCoordinates } from '../github/repository-coordinates.js';
import { isPermissionDenied } from '../github/request-error.js';
import { compactSharedLedger, MAX_COMPACTION_READS } from '../github/shared-ledger-compaction.js';
import type { Policy } from '../model/policy.js';
import { escapeControls } from '../report/plain-text.js';

/**
 * After a push run's append: the shared ledger keeps `memory.ledger_retention_days` of entries
 * (0 keeps them all), and never fewer than the days its readers read: `learning.window_days`
 * (`aureus learn --shared`) and `memory.patterns_retention_days` (`aureus memory patterns
 * --shared`; 0 reads every entry, so nothing is compacted). A proposal or a registry drawn from
 * it is then the same before and after a compaction. A compaction that cannot finish leaves the
 * branch as it was and says why; the check stands.
 */
export async function keepSharedLedgerRetention(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  policy: Policy,
  now: Date,
): Promise<void> {
  const retention = policy.memory.ledger_retention_days;
  if (retention <= 0) return;
  const patterns = policy.memory.patterns_retention_days;
  if (patterns === 0) {
    core.info(
      'The shared ledger is not compacted: memory.patterns_retention_days is 0, so the patterns registry reads every entry. Set it to the days it should read to let memory.ledger_retention_days apply.',
    );
    return;
  }
  const days = Math.max(retention, policy.learning.window_days, patterns);
  try {
    const result = await compactSharedLedger(client, repository, { days, now });
    if (result.status === 'compacted')
      core.info(
        `Compacted the shared ledger: ${result.replaced} entries older than ${days} days became its summary, ${result.kept} are kept.${result.more ? ` Older entries than that remain past the retention: each push run compacts the next ${MAX_COMPACTION_READS} files, oldest first.` : ''}`,
      );
    else if (result.status === 'moved')
      core.info(
        'The shared ledger was not compacted: another run appended to it meanwhile; the next run compacts it.',
      );
    else if (result.status === 'refused')
      core.warning(
        escapeControls(
          `AUREUS left the shared ledger uncompacted: ${result.why}. Run aureus ledger verify --shared to see its state.`,
        ),
      );
  } catch (error) {
    core.warning(
      isPermissionDenied(error)
        ? 'AUREUS could not compact the shared ledger: the token lacks the permission. To resolve, grant `contents: write` to this push job.'
        : escapeControls(
            `AUREUS left the shared ledger uncompacted: ${error instanceof Error ? error.message : String(error)}`,
          ),
    );
  }
}
