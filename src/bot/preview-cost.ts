import { checkPullRequest } from '../check/check-pull-request.js';
import type { GitHubClient } from '../github/github-client.js';
import { appCacheFolder } from '../memory/cache-dir.js';
import { AureusError } from '../model/errors.js';
import { renderMarkdown } from '../report/render-markdown.js';
import type { AppServices } from './evaluation-request.js';
import type { AppRepository } from './judged-change.js';

/** Its own marker, so a cost preview is never taken for the sticky ledger comment. */
const PREVIEW_MARKER = 'aureus:price';

/**
 * `/aureus price`: the cost of the pull request's current head against its budgets, as a
 * reply. Nothing else changes: no check run, no sticky comment, no ledger line.
 */
export async function previewCost(
  client: GitHubClient,
  services: AppServices,
  repository: AppRepository,
  pullNumber: number,
): Promise<void> {
  const coordinates = { owner: repository.owner, repo: repository.repo };
  let body: string;
  try {
    const { report } = await checkPullRequest(
      client,
      { ...coordinates, number: pullNumber },
      {
        cacheDir: appCacheFolder(services.dataDir),
        toolVersion: services.toolVersion,
        // A preview prices the change; the check run is where a loosened policy blocks.
        policyGate: { kind: 'warn' },
      },
    );
    body = renderMarkdown(report, { marker: PREVIEW_MARKER });
  } catch (error) {
    if (!(error instanceof AureusError)) throw error;
    body = `AUREUS could not price this pull request: ${error.message}\nTo resolve, ${error.hint}`;
  }
  await client.rest.issues.createComment({ ...coordinates, issue_number: pullNumber, body });
}
