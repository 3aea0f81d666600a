import type { Annotation } from '../report/render-annotations.js';
import type { GitHubClient } from './github-client.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/** GitHub takes at most 50 annotations per check-run request; more are added by updates. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** GitHub's limit on a check run's summary and text, in characters. */
const MAX_OUTPUT_CHARS = 65_535;

export type CheckConclusion = 'success' | 'neutral' | 'failure' | 'action_required';

export interface CheckRunOutput {
  readonly title: string;
  readonly summary: string;
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
  const batches = batchesOf(run.annotations.map(toCheckAnnotation), ANNOTATIONS_PER_REQUEST);
  const output = (annotations: CheckAnnotation[] | undefined) => ({
    title: run.output.title.slice(0, 255),
    summary: run.output.summary.slice(0, MAX_OUTPUT_CHARS),
    ...(annotations === undefined ? {} : { annotations }),
  });
  const created = await client.rest.checks.create({
    owner: run.owner,
    repo: run.repo,
    name: run.name,
    head_sha: run.headSha,
    status: 'completed',
    conclusion: run.conclusion,
    output: output(batches[0]),
  });
  for (const batch of batches.slice(1)) {
    await client.rest.checks.update({
      owner: run.owner,
      repo: run.repo,
      check_run_id: created.data.id,
      output: output(batch),
    });
  }
  return created.data.id;
}

interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
}

function toCheckAnnotation(annotation: Annotation): CheckAnnotation {
  return {
    path: annotation.file,
    start_line: annotation.startLine,
    end_line: annotation.endLine,
    annotation_level: annotation.level === 'error' ? 'failure' : annotation.level,
    title: annotation.title.slice(0, 255),
    message: annotation.message.slice(0, 64 * 1024),
  };
}

function batchesOf<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    batches.push(items.slice(start, start + size));
  return batches;
}
