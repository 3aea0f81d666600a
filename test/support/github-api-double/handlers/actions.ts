import {
  bodyAs,
  failure,
  type Handler,
  intParam,
  json,
  notFound,
  repoOf,
  stringParam,
} from '../context.js';
import { entryAt } from '../tree-edit.js';

/** Workflow runs started through the double, by id: dispatches create them, cancels end them. */
const FIRST_RUN_ID = 31_000_000;
let nextRunId = FIRST_RUN_ID;

/**
 * `workflow_dispatch`: GitHub answers 404 when the workflow file is not on the ref, and 200 with
 * the run's id when `return_run_details` is asked for (204 otherwise).
 */
const createWorkflowDispatch: Handler = (context) => {
  const repo = repoOf(context);
  const body = bodyAs<{ ref: string; return_run_details?: boolean }>(context);
  const commitSha = repo.resolveCommit(body.ref);
  const commit = commitSha === undefined ? undefined : repo.store.readCommit(commitSha);
  if (commit === undefined) return failure(context, 422, `No ref found for: ${body.ref}`);
  const file = stringParam(context, 'workflow_id');
  if (entryAt(repo.store, commit.tree, `.github/workflows/${file}`) === undefined)
    return notFound(context);
  if (body.return_run_details !== true) return json(204, null);
  const id = nextRunId++;
  const runUrl = `${context.world.apiUrl}/repos/${repo.info.owner}/${repo.info.repo}/actions/runs/${id}`;
  return json(200, {
    workflow_run_id: id,
    run_url: runUrl,
    html_url: `https://github.com/${repo.info.owner}/${repo.info.repo}/actions/runs/${id}`,
  });
};

const cancelWorkflowRun: Handler = (context) => {
  const id = intParam(context, 'run_id');
  if (id < FIRST_RUN_ID || id >= nextRunId) return notFound(context);
  return json(202, {});
};

export const actionHandlers: Record<string, Handler> = {
  'actions/create-workflow-dispatch': createWorkflowDispatch,
  'actions/cancel-workflow-run': cancelWorkflowRun,
};
