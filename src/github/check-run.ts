import type { Annotation } from '../report/render-annotations.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** GitHub takes at most 50 annotations per check-run request; more are added by updates. */
export const ANNOTATIONS_PER_REQUEST = 50;
/**
 * Annotations posted per check run at most: ten requests. A change with 10,000 findings would
 * otherwise cost 200 requests of the installation's rate limit for marks nobody reads past the
 * first screens; the errors come first (renderAnnotations sorts them) and the summary and the
 * report keep every finding.
 */
export const MAX_ANNOTATIONS = 500;
/** GitHub's limit on a check run's summary and text, in characters. */
const MAX_OUTPUT_CHARS = 65_535;

export type CheckConclusion = 'success' | 'neutral' | 'failure' | 'action_required' | 'cancelled';

export interface CheckRunOutput {
  readonly title: string;
  readonly summary: string;
  /** Shown under the summary; the App keeps its ledger anchor marker here, and nothing else. */
  readonly text?: string;
}

export interface CompletedCheckRun extends RepositoryCoordinates {
  readonly name: string;
  readonly headSha: string;
  readonly conclusion: CheckConclusion;
  readonly output: CheckRunOutput;
  readonly annotations: readonly Annotation[];
}

/**
 * A completed check run carrying the annotations: the first 50 with the creation, the rest in
 * updates of 50 (GitHub appends the annotations of each update). Returns the check run's id.
 */
export async function publishCheckRun(
  client: GitHubClient,
  run: CompletedCheckRun,
): Promise<number> {
  const [first, ...rest] = annotationBatches(run.annotations);
  const created = await client.rest.checks.create({
    owner: run.owner,
    repo: run.repo,
    name: run.name,
    head_sha: run.headSha,
    status: 'completed',
    conclusion: run.conclusion,
    output: outputOf(run.output, first),
  });
  await addAnnotations(client, run, created.data.id, rest);
  return created.data.id;
}

export interface StartedCheckRun extends RepositoryCoordinates {
  readonly name: string;
  readonly headSha: string;
  /** What was judged (`pull:12`, `range:<base sha>`): a re-run request is answered from it. */
  readonly externalId?: string;
}

/**
 * A check run in progress, so the pull request shows AUREUS at work while it reads and judges
 * the change; `completeCheckRun` concludes it. Returns its id.
 */
export async function startCheckRun(client: GitHubClient, run: StartedCheckRun): Promise<number> {
  const created = await client.rest.checks.create({
    owner: run.owner,
    repo: run.repo,
    name: run.name,
    head_sha: run.headSha,
    status: 'in_progress',
    ...(run.externalId === undefined ? {} : { external_id: run.externalId }),
  });
  return created.data.id;
}

export interface CheckRunConclusion extends RepositoryCoordinates {
  readonly id: number;
  readonly conclusion: CheckConclusion;
  readonly output: CheckRunOutput;
  readonly annotations: readonly Annotation[];
}

/** Concludes a started check run, with its annotations in batches of 50. */
export async function completeCheckRun(
  client: GitHubClient,
  run: CheckRunConclusion,
): Promise<void> {
  const [first, ...rest] = annotationBatches(run.annotations);
  await client.rest.checks.update({
    owner: run.owner,
    repo: run.repo,
    check_run_id: run.id,
    status: 'completed',
    conclusion: run.conclusion,
    output: outputOf(run.output, first),
  });
  await addAnnotations(client, run, run.id, rest);
}

async function addAnnotations(
  client: GitHubClient,
  run: RepositoryCoordinates & { readonly output: CheckRunOutput },
  id: number,
  batches: readonly CheckAnnotation[][],
): Promise<void> {
  for (const batch of batches) {
    await client.rest.checks.update({
      owner: run.owner,
      repo: run.repo,
      check_run_id: id,
      output: outputOf(run.output, batch),
    });
  }
}

function outputOf(output: CheckRunOutput, annotations: CheckAnnotation[] | undefined) {
  return {
    title: output.title.slice(0, 255),
    summary: output.summary.slice(0, MAX_OUTPUT_CHARS),
    ...(output.text === undefined ? {} : { text: output.text.slice(0, MAX_OUTPUT_CHARS) }),
    ...(annotations === undefined ? {} : { annotations }),
  };
}

interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
}

function toCheckAnnotation(annotation: Annotation): CheckAnnotation {
  return {
    path: annotation.file,
    start_line: annotation.startLine,
    end_line: annotation.endLine,
    // A point: the column where the finding is (a syntax error), on its single line.
    ...(annotation.startColumn === undefined
      ? {}
      : { start_column: annotation.startColumn, end_column: annotation.startColumn }),
    annotation_level: annotation.level === 'error' ? 'failure' : annotation.level,
    title: annotation.title.slice(0, 255),
    message: annotation.message.slice(0, 64 * 1024),
  };
}

function annotationBatches(annotations: readonly Annotation[]): CheckAnnotation[][] {
  return batchesOf(
    annotations.slice(0, MAX_ANNOTATIONS).map(toCheckAnnotation),
    ANNOTATIONS_PER_REQUEST,
  );
}

function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    batches.push(items.slice(start, start + size));
  return batches;
}
