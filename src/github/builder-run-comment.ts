import { isParsedJsonObject, isRecord, type JsonObject } from '../model/json.js';
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

/** The builder's phases as the tracking comment shows them, in order. */
const PHASES = ['Gather', 'Plan', 'Act', 'Verify', 'Publish'] as const;

/** `Gather ✓ Plan ✓ Act … Verify … Publish …`: the first `passed` phases are done. */
export function builderRunPhases(passed: number): string {
  return PHASES.map((phase, index) => `${phase} ${index < passed ? '✓' : '…'}`).join(' ');
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

/** The status the publish job gives a run that stopped for want of budget (the App reads it). */
export const STOPPED_PHASE = 'stopped: it needs a larger budget';

/**
 * What a continuation of a stopped run starts from, written by the publish job (which checked
 * the kept commits and priced them itself) into the run's tracking comment, hidden: where the run
 * started, the kept work's commit and points, what the run spent, and its accepted plan.
 */
export interface StoppedRunState {
  readonly start: string;
  readonly head: string | null;
  readonly points: number;
  readonly usd: number;
  readonly tokens: number;
  readonly plan: JsonObject | null;
}

const STATE_LINE = /^<!-- aureus:stopped-run ([A-Za-z0-9_-]{1,24000}) -->$/m;
const SHA = /^[0-9a-f]{40}$/;

/** The hidden line carrying `state`: base64url, so no text of the plan can close the comment. */
export function stoppedRunStateLine(state: StoppedRunState): string {
  const encoded = Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
  return `<!-- aureus:stopped-run ${encoded} -->`;
}

/** The stopped run's state in a tracking comment's body, or undefined when it holds none. */
export function readStoppedRunState(body: string): StoppedRunState | undefined {
  const found = STATE_LINE.exec(body);
  if (found?.[1] === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(found[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return stoppedRunStateOf(parsed);
}

/** `value` as a stopped run's state, every field checked, or undefined. */
function stoppedRunStateOf(parsed: unknown): StoppedRunState | undefined {
  if (!isRecord(parsed)) return undefined;
  const { start, head, points, usd, tokens, plan } = parsed;
  const amount = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0;
  if (
    typeof start !== 'string' ||
    !SHA.test(start) ||
    !(head === null || (typeof head === 'string' && SHA.test(head))) ||
    !amount(points) ||
    !amount(usd) ||
    !amount(tokens) ||
    !(plan === null || isParsedJsonObject(plan))
  )
    return undefined;
  return { start, head, points, usd, tokens, plan };
}
