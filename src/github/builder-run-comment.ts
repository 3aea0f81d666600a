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

const TRACKING =
  /^<!-- aureus:builder-run ([0-9a-f]{12}) -->\n\*\*AUREUS builder\*\* run `\1`: (\S+)/;
const WORKFLOW_RUN = /workflow run (\d{1,16})$/;

/**
 * What a tracking comment says of its run: its id, whether it is still queued, and the
 * workflow run it was dispatched as, when the comment names it (`workflow run <id>`).
 * Undefined for any other comment. Only comments by the account that dispatched are read.
 */
export function readBuilderRunComment(
  body: string,
):
  | { readonly runId: string; readonly active: boolean; readonly workflowRunId?: number }
  | undefined {
  const found = TRACKING.exec(body);
  if (found?.[1] === undefined) return undefined;
  const workflowRun = WORKFLOW_RUN.exec(body);
  return {
    runId: found[1],
    active: found[2] === 'queued' || found[2] === 'running',
    ...(workflowRun?.[1] === undefined ? {} : { workflowRunId: Number(workflowRun[1]) }),
  };
}
