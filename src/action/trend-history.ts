import * as core from '@actions/core';
import { recentSharedLedgerEntries } from '../github/shared-ledger-recent.js';
import { isRecord } from '../model/json.js';
import { TREND_CHECKS } from '../report/markdown-trend.js';
import { escapeControls } from '../report/plain-text.js';
import type { Publication } from './publish-report.js';

/**
 * The costs of the latest changes judged on the pull request's target branch, oldest first,
 * from the shared ledger (the `aureus-ledger` branch CI writes, never the pull request): what
 * the comment's trend chart draws. The chart only illustrates, so a ledger that cannot be read
 * leaves it out with a log line; the verdict never depends on it.
 */
export async function trendHistory(publication: Publication): Promise<number[]> {
  const { event, client, settings } = publication;
  const target = event.target;
  // A fork's run posts no comment, and makes no request at all (publish-report.ts).
  if (client === null || target.kind !== 'pull-request' || target.fromFork || !settings.comment)
    return [];
  try {
    // Every entry is a push to the default branch: a few more than charted leave room for
    // entries that are not checks of the target branch.
    const entries = await recentSharedLedgerEntries(client, event.repository, TREND_CHECKS * 2);
    const ref = `refs/heads/${target.baseRef}`;
    return entries.flatMap(({ record }) => {
      const { cost } = record;
      if (record.kind !== 'check' || record.ref !== ref || !isRecord(cost)) return [];
      return typeof cost.total === 'number' ? [cost.total] : [];
    });
  } catch (error) {
    core.info(
      escapeControls(
        `The comment has no trend chart: the shared ledger could not be read (${error instanceof Error ? error.message : String(error)}).`,
      ),
    );
    return [];
  }
}
