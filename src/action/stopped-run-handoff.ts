import { join } from 'node:path';
import { PLANNED } from '../agent/implement-run.js';
import { runGit } from '../git/git-runner.js';
import { BUILDER_WORKFLOW } from '../github/builder-trigger.js';
import type { GitHubClient } from '../github/github-client.js';
import { payloadField as field } from '../github/payload-field.js';
import { statusOf } from '../github/request-error.js';
import { writeOutputFile } from '../memory/output-file.js';
import { AureusError } from '../model/errors.js';
import { isParsedJsonObject } from '../model/json.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import { PLANNED_RUN } from './planned-run.js';
import { budgetStopOf, runClaims } from './published-run.js';
import { RUN_BUNDLE, RUN_REPORT, RUN_TRAJECTORY, readArtifactFile } from './run-artifact.js';
import { type GitRemote, stoppedRunRef } from './run-branch.js';

/**
 * A continuation's way back to the work of the run it continues (`/aureus approve-budget`). The
 * authority is the artifact of the stopped workflow run, which the App names (`resume_from`, the
 * id GitHub gave it when the App dispatched that run) and which is checked here to be the App's
 * own dispatch of the builder workflow on the default branch: only the App's bot can start such a
 * run, and only the run's own jobs can upload into it. Its report and state must answer this very
 * dispatch (issue, run id, requester, snapshot) and say it stopped for want of budget. The kept
 * ref is only where the bytes are published: it must hold exactly the commit that artifact names,
 * which the stop's publish job kept after checking it. Nothing comes from the tracking comment,
 * which any writer can edit, so no writer can put their commits or plan under someone else's run.
 */

const MAX_STATE_BYTES = 4 * 1024 * 1024;
const MAX_REPORT_BYTES = 1024 * 1024;
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
const MAX_TRAJECTORY_BYTES = 32 * 1024 * 1024;
const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export interface HandOnSettings {
  /** The checkout of the default branch the continuation was dispatched on. */
  readonly root: string;
  /** Where actions/download-artifact put the stopped workflow run's artifact. */
  readonly resumeDir: string;
  /** The continuation's output-dir, where the stop is handed on as its plan. */
  readonly folder: string;
  readonly workspace: string;
  /** The workflow run this job runs in: a run never continues itself. */
  readonly currentWorkflowRun: number;
  /** The repository, read with the job's token, where the kept ref is. */
  readonly remote: GitRemote;
}

function refuse(why: string): AureusError {
  return new AureusError(
    `the stopped run cannot be continued: ${why}`,
    'continue a stopped run only through /aureus approve-budget on its issue, which makes the AUREUS App dispatch the builder workflow with resume_from; or ask for a new run with /aureus implement --budget.',
  );
}

/**
 * Checks the stopped workflow run, its artifact and its kept ref, then writes the stop into
 * `folder` as the continuation's plan (status `planned`, its state, commits and trajectory),
 * for the show-plan and Act jobs to go on from as they go on from a plan. Throws the refusal.
 */
export async function handOnStoppedRun(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  settings: HandOnSettings,
): Promise<{ readonly head: string | null; readonly status: string }> {
  const from = dispatch.resumeFrom;
  if (from === undefined) throw refuse('the dispatch names no stopped workflow run.');
  if (from === settings.currentWorkflowRun) throw refuse('a workflow run cannot continue itself.');
  await checkStoppedWorkflowRun(client, dispatch, from);
  const claims = runClaims(settings.resumeDir, dispatch);
  if ('refusals' in claims) throw refuse(claims.refusals.join(' '));
  if (budgetStopOf(claims.status) === undefined)
    throw refuse(`workflow run ${from} ended "${claims.status}", not stopped for want of budget.`);
  const head = (claims.commits ?? []).at(-1) ?? null;
  const state = stateRecord(settings.resumeDir, dispatch, claims.startCommit, head);
  const checkout = (await runGit(settings.root, ['rev-parse', 'HEAD'])).stdout
    .toString('utf8')
    .trim();
  if (claims.startCommit !== checkout)
    throw refuse(
      `it started at ${claims.startCommit.slice(0, 12)}, and the default branch is at ${checkout.slice(0, 12)} now: its kept work stays on its ref; start a new run with /aureus implement.`,
    );
  if (head !== null) await checkKeptRef(settings.root, settings.remote, dispatch, head);
  const write = (name: string, data: string | Uint8Array) =>
    writeOutputFile(join(settings.folder, name), data, {
      setting: 'the output-dir input',
      within: { folder: settings.workspace, name: 'the workspace' },
    });
  await write(PLANNED_RUN, `${JSON.stringify(state)}\n`);
  if (head !== null) {
    const bundle = readArtifactFile(settings.resumeDir, RUN_BUNDLE, MAX_BUNDLE_BYTES);
    if ('refusal' in bundle) throw refuse(bundle.refusal);
    await write(RUN_BUNDLE, bundle.bytes);
  }
  const trajectory = readArtifactFile(settings.resumeDir, RUN_TRAJECTORY, MAX_TRAJECTORY_BYTES);
  if ('bytes' in trajectory) await write(RUN_TRAJECTORY, trajectory.bytes);
  const report = readArtifactFile(settings.resumeDir, RUN_REPORT, MAX_REPORT_BYTES);
  const parsed: unknown = 'bytes' in report ? JSON.parse(report.bytes.toString('utf8')) : null;
  if (!isParsedJsonObject(parsed)) throw refuse(`its ${RUN_REPORT} is not an object.`);
  // The stop stands as the continuation's plan: accepted, and nothing of it is planned again.
  await write(
    RUN_REPORT,
    `${JSON.stringify({ ...parsed, status: PLANNED, continuedFrom: { workflowRun: from, status: claims.status } }, null, 2)}\n`,
  );
  return { head, status: claims.status };
}

/**
 * The workflow run `id` must be the App's dispatch of the builder workflow on the default
 * branch: GitHub says who started it (the actor, by account id) and on what; a writer's own
 * workflow, a run on another branch or a run of another workflow is refused.
 */
async function checkStoppedWorkflowRun(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  id: number,
): Promise<void> {
  let run: unknown;
  try {
    ({ data: run } = await client.rest.actions.getWorkflowRun({
      ...dispatch.repository,
      run_id: id,
    }));
  } catch (error) {
    if (statusOf(error) === 404) throw refuse(`workflow run ${id} does not exist.`);
    if (statusOf(error) === 403)
      throw new AureusError(
        `GitHub refused to read workflow run ${id} (403), which the continuation goes on from.`,
        'give the plan job actions: read, as the builder workflow in the README does.',
      );
    throw error;
  }
  const actor = field(run, 'actor');
  const problems = [
    field(run, 'id') === id ? null : 'GitHub answered another run',
    field(run, 'event') === 'workflow_dispatch'
      ? null
      : `it ran on ${JSON.stringify(field(run, 'event'))}, not workflow_dispatch`,
    field(actor, 'id') === dispatch.dispatcher
      ? null
      : `it was started by ${JSON.stringify(field(actor, 'login') ?? 'nobody')}, not by the App that dispatched this run`,
    field(run, 'head_branch') === dispatch.defaultBranch
      ? null
      : `it ran on ${JSON.stringify(field(run, 'head_branch'))}, not the default branch ${dispatch.defaultBranch}`,
    field(run, 'path') === `.github/workflows/${BUILDER_WORKFLOW}`
      ? null
      : `it ran ${JSON.stringify(field(run, 'path'))}, not .github/workflows/${BUILDER_WORKFLOW}`,
  ].filter((problem): problem is string => problem !== null);
  if (problems.length > 0)
    throw refuse(`workflow run ${id} is not the App's run of the builder: ${problems.join('; ')}.`);
}

/** run-state.json of the stop: this dispatch's, its state starting where the report says. */
function stateRecord(
  folder: string,
  dispatch: BuilderDispatch,
  start: string,
  head: string | null,
): Record<string, unknown> {
  const read = readArtifactFile(folder, PLANNED_RUN, MAX_STATE_BYTES);
  if ('refusal' in read) throw refuse(read.refusal);
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    throw refuse(`its ${PLANNED_RUN} is not JSON.`);
  }
  if (
    !isParsedJsonObject(parsed) ||
    field(parsed, 'issue') !== dispatch.issue ||
    field(parsed, 'run_id') !== dispatch.runId ||
    field(parsed, 'snapshot') !== dispatch.snapshot
  )
    throw refuse(`its ${PLANNED_RUN} answers another dispatch.`);
  if (field(field(parsed, 'state'), 'startCommit') !== start)
    throw refuse(`its ${PLANNED_RUN} starts elsewhere than its report.`);
  const kept = field(parsed, 'head');
  if (kept !== head || (head !== null && !COMMIT.test(head)))
    throw refuse(`its ${PLANNED_RUN} names another commit than its report's last.`);
  return parsed;
}

/**
 * The kept ref holds the bytes; the artifact says which commit they must be. A writer can push
 * refs, so a ref moved or made by hand is refused, and a stop whose publish job kept nothing
 * (it refused the run) has no ref to go on from.
 */
async function checkKeptRef(
  root: string,
  remote: GitRemote,
  dispatch: BuilderDispatch,
  head: string,
): Promise<void> {
  const ref = stoppedRunRef(dispatch, head);
  const listed = await runGit(root, ['ls-remote', remote.url, ref], remote.options);
  const there = listed.stdout.toString('utf8').split('\t')[0]?.trim() ?? '';
  if (there === '')
    throw refuse(
      `its work is not kept at ${ref}: only a stop whose publish job checked and kept its commits goes on.`,
    );
  if (there !== head)
    throw refuse(
      `${ref} holds ${there.slice(0, 12)}, not the commit ${head.slice(0, 12)} the stopped workflow run's artifact names: the ref was moved.`,
    );
}
