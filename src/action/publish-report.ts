import * as core from '@actions/core';
import { type CheckConclusion, publishCheckRun } from '../github/check-run.js';
import type { GitHubClient } from '../github/github-client.js';
import { isPermissionDenied } from '../github/request-error.js';
import { upsertStickyComment } from '../github/sticky-comment.js';
import type { WorkflowEvent } from '../github/workflow-event.js';
import type { Annotation } from '../report/render-annotations.js';
import { workflowCommand } from '../report/render-annotations.js';
import { ledgerMarker } from '../report/render-markdown.js';
import type { ActionSettings } from './action-settings.js';

/** The log shows at most this many annotations; GitHub displays only the first few anyway. */
const MAX_LOG_ANNOTATIONS = 50;

export interface Publication {
  readonly settings: ActionSettings;
  readonly event: WorkflowEvent;
  /** null when there is no token: nothing is posted, the summary and exit status remain. */
  readonly client: GitHubClient | null;
  /** The commit the results belong to (pull request head, pushed commit, queue commit). */
  readonly headSha: string | null;
}

export interface Verdict {
  readonly conclusion: CheckConclusion;
  readonly title: string;
  /** The sticky comment and the check run's summary. */
  readonly markdown: string;
  readonly annotations: readonly Annotation[];
}

/**
 * Posts the verdict where the workflow can: the sticky comment on a pull request and a check
 * run with the annotations. A fork's pull request gets a read-only token, so nothing is posted
 * (no request bound to fail with 403): the job summary, log annotations and exit status carry
 * the result. A token that lacks a permission is reported as a warning, never as a crash.
 */
export async function publishVerdict(publication: Publication, verdict: Verdict): Promise<void> {
  const { settings, event, client } = publication;
  const target = event.target;
  const readOnly = target.kind === 'pull-request' && target.fromFork;
  if (readOnly)
    core.info(
      'Pull request from a fork: its token is read-only, so AUREUS posts no comment or check run; the job summary, the log annotations and the exit status carry the result.',
    );
  if (client !== null && !readOnly && target.kind === 'pull-request' && settings.comment) {
    await permitted('comment on the pull request', 'pull-requests: write', () =>
      upsertStickyComment(
        client,
        { ...event.repository, issueNumber: target.number },
        ledgerMarker(),
        verdict.markdown,
      ),
    );
  }
  if (settings.annotations === 'off') return;
  const viaChecks =
    settings.annotations === 'checks' && client !== null && !readOnly && publication.headSha;
  if (viaChecks) {
    const headSha = publication.headSha;
    const posted = await permitted('create a check run', 'checks: write', () =>
      publishCheckRun(client, {
        ...event.repository,
        name: settings.checkName,
        headSha,
        conclusion: verdict.conclusion,
        output: { title: verdict.title, summary: verdict.markdown },
        annotations: verdict.annotations,
      }),
    );
    if (posted) return;
  }
  logAnnotations(verdict.annotations);
}

/** Runs a write; a permission the token lacks becomes a warning with the fix. */
async function permitted(
  what: string,
  permission: string,
  write: () => Promise<unknown>,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (!isPermissionDenied(error)) throw error;
    core.warning(
      `AUREUS could not ${what}: the token lacks the permission. To resolve, grant \`${permission}\` in the workflow's permissions.`,
    );
    return false;
  }
}

function logAnnotations(annotations: readonly Annotation[]): void {
  // workflowCommand escapes file names and messages: they cannot end the command or start one.
  for (const annotation of annotations.slice(0, MAX_LOG_ANNOTATIONS))
    process.stdout.write(`${workflowCommand(annotation)}\n`);
  if (annotations.length > MAX_LOG_ANNOTATIONS)
    core.info(
      `${annotations.length - MAX_LOG_ANNOTATIONS} more annotations are in the SARIF file and the job summary.`,
    );
}
