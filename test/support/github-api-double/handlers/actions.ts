import { parse } from 'yaml';
import {
  actor,
  bodyAs,
  failure,
  type Handler,
  type HandlerContext,
  intParam,
  json,
  notFound,
  optionalString,
  repoOf,
  stringParam,
} from '../context.js';
import { HTML_URL, nodeId, repositoryObject, userObject } from '../github-objects.js';
import { paginate } from '../pagination.js';
import { type RepositoryState, timestamp, type WorkflowRun } from '../state.js';
import { entryAt } from '../tree-edit.js';

/** Workflow runs started through the double, by id: dispatches create them, cancels end them. */
const FIRST_RUN_ID = 31_000_000;
let nextRunId = FIRST_RUN_ID;

/** A run a test adds (one dispatched earlier, elsewhere): its id comes from the same counter. */
export function addWorkflowRun(repo: RepositoryState, run: Omit<WorkflowRun, 'id'>): WorkflowRun {
  const added = { ...run, id: nextRunId++ };
  repo.workflowRuns.push(added);
  return added;
}

/**
 * `workflow_dispatch`: GitHub answers 404 when the workflow file is not on the ref, and 200 with
 * the run's id when `return_run_details` is asked for (204 otherwise).
 */
const createWorkflowDispatch: Handler = (context) => {
  const repo = repoOf(context);
  const body = bodyAs<{
    ref: string;
    inputs?: Record<string, string>;
    return_run_details?: boolean;
  }>(context);
  const commitSha = repo.resolveCommit(body.ref);
  const commit = commitSha === undefined ? undefined : repo.store.readCommit(commitSha);
  if (commit === undefined) return failure(context, 422, `No ref found for: ${body.ref}`);
  const file = stringParam(context, 'workflow_id');
  const entry = entryAt(repo.store, commit.tree, `.github/workflows/${file}`);
  if (entry === undefined) return notFound(context);
  // GitHub refuses inputs the workflow does not declare, naming them.
  const declared = declaredInputs(repo.store.readBlob(entry.sha));
  const unexpected = Object.keys(body.inputs ?? {}).filter((name) => !declared.includes(name));
  if (unexpected.length > 0)
    return failure(context, 422, `Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
  const { id } = addWorkflowRun(repo, {
    workflow: file,
    event: 'workflow_dispatch',
    headBranch: body.ref,
    headSha: commitSha ?? '',
    createdAt: timestamp(context.world.now()),
    inputs: body.inputs ?? {},
    actor: actor(context),
  });
  if (body.return_run_details !== true) return json(204, null);
  const runUrl = `${context.world.apiUrl}/repos/${repo.info.owner}/${repo.info.repo}/actions/runs/${id}`;
  return json(200, {
    workflow_run_id: id,
    run_url: runUrl,
    html_url: `https://github.com/${repo.info.owner}/${repo.info.repo}/actions/runs/${id}`,
  });
};

/** The `workflow_dispatch` inputs a workflow file declares (none when it is not YAML). */
function declaredInputs(content: Uint8Array | undefined): string[] {
  let workflow: unknown;
  try {
    workflow = parse(Buffer.from(content ?? new Uint8Array()).toString('utf8'));
  } catch {
    return [];
  }
  let node = workflow;
  for (const key of ['on', 'workflow_dispatch', 'inputs'])
    node =
      typeof node === 'object' && node !== null && key in node ? Reflect.get(node, key) : undefined;
  return typeof node === 'object' && node !== null ? Object.keys(node) : [];
}

const cancelWorkflowRun: Handler = (context) => {
  const id = intParam(context, 'run_id');
  if (id < FIRST_RUN_ID || id >= nextRunId) return notFound(context);
  return json(202, {});
};

/** A workflow's runs, newest first, filtered by `event` (GitHub's other filters are not read). */
const listWorkflowRuns: Handler = (context) => {
  const repo = repoOf(context);
  const file = stringParam(context, 'workflow_id');
  const event = optionalString(context, 'event');
  const runs = repo.workflowRuns
    .filter((run) => run.workflow === file && (event === undefined || run.event === event))
    .reverse();
  const page = paginate(runs, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    {
      total_count: runs.length,
      workflow_runs: page.items.map((run) => workflowRunObject(context, repo, run)),
    },
    page.link === undefined ? undefined : { link: page.link },
  );
};

/** One run by id, as GitHub answers it (404 for a run of another repository or none). */
const getWorkflowRun: Handler = (context) => {
  const repo = repoOf(context);
  const id = intParam(context, 'run_id');
  const run = repo.workflowRuns.find((each) => each.id === id);
  if (run === undefined) return notFound(context);
  return json(200, workflowRunObject(context, repo, run));
};

function workflowRunObject(
  context: HandlerContext,
  repo: RepositoryState,
  run: WorkflowRun,
): Record<string, unknown> {
  const api = context.world.apiUrl;
  const url = `${api}/repos/${repo.info.owner}/${repo.info.repo}/actions/runs/${run.id}`;
  const repository = repositoryObject(api, repo.info);
  const person = { name: 'github-actions[bot]', email: 'actions@users.noreply.github.com' };
  return {
    id: run.id,
    node_id: nodeId('WorkflowRun', run.id),
    name: run.workflow,
    head_branch: run.headBranch,
    run_number: run.id - FIRST_RUN_ID + 1,
    display_title: run.workflow,
    event: run.event,
    status: run.completedAt === undefined ? 'queued' : 'completed',
    conclusion: run.completedAt === undefined ? null : 'success',
    head_sha: run.headSha,
    path: `.github/workflows/${run.workflow}`,
    workflow_id: 1,
    url,
    html_url: `${HTML_URL}/${repo.info.owner}/${repo.info.repo}/actions/runs/${run.id}`,
    created_at: run.createdAt,
    updated_at: run.completedAt ?? run.createdAt,
    head_commit: {
      id: run.headSha,
      tree_id: run.headSha,
      message: 'head',
      timestamp: run.createdAt,
      author: person,
      committer: person,
    },
    ...(run.actor === undefined
      ? {}
      : { actor: userObject(api, run.actor), triggering_actor: userObject(api, run.actor) }),
    head_repository: repository,
    repository,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/repos/${repo.info.owner}/${repo.info.repo}/check-suites/${run.id}`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    artifacts_url: `${url}/artifacts`,
    workflow_url: `${api}/repos/${repo.info.owner}/${repo.info.repo}/actions/workflows/1`,
    pull_requests: [],
  };
}

export const actionHandlers: Record<string, Handler> = {
  'actions/list-workflow-runs': listWorkflowRuns,
  'actions/get-workflow-run': getWorkflowRun,
  'actions/create-workflow-dispatch': createWorkflowDispatch,
  'actions/cancel-workflow-run': cancelWorkflowRun,
};
