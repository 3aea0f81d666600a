import { escapeMarkdown } from '../report/markdown-escape.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/**
 * The tracking comment of one builder run: posted "queued" when the App dispatches it, then
 * edited in place as the run goes through its phases (one comment per run, found by its id).
 */
export type BuilderPhase = 'queued' | 'running' | 'finished' | 'failed' | 'cancelled' | string;

export function builderRunMarker(runId: string): string {
  return `<!-- aureus:builder-run ${runId} -->`;
}

export function builderRunComment(runId: string, phase: BuilderPhase, detail = ''): string {
  return [
    builderRunMarker(runId),
    `**AUREUS builder** run \`${runId}\`: ${escapeMarkdown(phase)}${detail === '' ? '' : ` ${escapeMarkdown(detail)}`}`,
  ].join('\n');
}

/** Edits the run's tracking comment to show `phase`: what the runner calls as it goes. */
export async function updateBuilderRunComment(
  client: GitHubClient,
  repository: RepositoryCoordinates,
  commentId: number,
  runId: string,
  phase: BuilderPhase,
  detail = '',
): Promise<void> {
  await client.rest.issues.updateComment({
    ...repository,
    comment_id: commentId,
    body: builderRunComment(runId, phase, detail),
  });
}
