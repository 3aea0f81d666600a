import {
  apiRepoUrl,
  bodyAs,
  failure,
  type Handler,
  type HandlerContext,
  intParam,
  json,
  notFound,
  optionalString,
  type Reply,
  repoOf,
  stringParam,
} from '../context.js';
import { appObject, HTML_URL, nodeId } from '../github-objects.js';
import { paginate } from '../pagination.js';
import { type Annotation, type AppInfo, type CheckRun, timestamp } from '../state.js';

/** The app that owns check runs made with a workflow's `GITHUB_TOKEN`. */
export const GITHUB_ACTIONS_APP: AppInfo = {
  id: 15368,
  slug: 'github-actions',
  name: 'GitHub Actions',
  owner: { login: 'github', id: 9919, type: 'Organization' },
  clientId: 'Iv1.github-actions',
  permissions: { checks: 'write', contents: 'write', pull_requests: 'write', issues: 'write' },
  events: ['check_run', 'check_suite', 'pull_request', 'push'],
  createdAt: '2018-07-30T09:30:17Z',
};

interface OutputBody {
  title?: string;
  summary?: string;
  text?: string;
  annotations?: Annotation[];
  images?: { alt: string; image_url: string; caption?: string }[];
}

interface CheckRunBody {
  name?: string;
  head_sha?: string;
  details_url?: string;
  external_id?: string;
  status?: string;
  conclusion?: string;
  started_at?: string;
  completed_at?: string;
  output?: OutputBody;
}

function checkRunObject(context: HandlerContext, run: CheckRun): Record<string, unknown> {
  const repo = repoOf(context);
  const api = apiRepoUrl(context);
  const pulls = [...repo.pulls.values()].filter(
    (pull) =>
      pull.headSha === run.headSha &&
      `${pull.headOwner}/${pull.headRepo}`.toLowerCase() === repo.fullName.toLowerCase(),
  );
  const repoRef = { id: repo.info.id, url: api, name: repo.info.repo };
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId('CheckRun', run.id),
    external_id: run.externalId,
    url: `${api}/check-runs/${run.id}`,
    html_url: `${HTML_URL}/${repo.fullName}/runs/${run.id}`,
    details_url: run.detailsUrl,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotations.length,
      annotations_url: `${api}/check-runs/${run.id}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.suiteId },
    app: appObject(context.world.apiUrl, run.app),
    pull_requests: pulls.map((pull) => ({
      id: pull.number,
      number: pull.number,
      url: `${api}/pulls/${pull.number}`,
      head: { ref: pull.headRef, sha: pull.headSha, repo: repoRef },
      base: { ref: pull.baseRef, sha: pull.baseSha, repo: repoRef },
    })),
  };
}

/**
 * GitHub's own checks beyond the schema: a completed run needs a conclusion, and an annotation
 * may only carry columns when it spans a single line.
 */
function semanticProblem(context: HandlerContext, run: CheckRunBody, existing?: CheckRun) {
  const completing = run.status === 'completed' || run.completed_at !== undefined;
  if (completing && run.conclusion === undefined && existing?.conclusion == null) {
    return failure(context, 422, 'Invalid request.\n\n"conclusion" wasn\'t supplied.', {
      invalid: true,
    });
  }
  for (const annotation of run.output?.annotations ?? []) {
    const columns = annotation.start_column !== undefined || annotation.end_column !== undefined;
    if (columns && annotation.start_line !== annotation.end_line) {
      return failure(
        context,
        422,
        'Invalid request.\n\nstart_column and end_column are only allowed when start_line equals end_line.',
        { invalid: true },
      );
    }
    if (annotation.end_line < annotation.start_line) {
      return failure(context, 422, 'Invalid request.\n\nend_line must be >= start_line.', {
        invalid: true,
      });
    }
  }
  return undefined;
}

function appOf(context: HandlerContext): AppInfo {
  const appId = context.grant?.appId;
  return (appId === undefined ? undefined : context.world.apps.get(appId)) ?? GITHUB_ACTIONS_APP;
}

/** Applies a create or update body; annotations and images are appended, as GitHub does. */
function apply(run: CheckRun, body: CheckRunBody, now: string): void {
  if (body.name !== undefined) run.name = body.name;
  if (body.details_url !== undefined) run.detailsUrl = body.details_url;
  if (body.external_id !== undefined) run.externalId = body.external_id;
  if (body.started_at !== undefined) run.startedAt = body.started_at;
  if (body.status !== undefined) run.status = body.status;
  if (body.conclusion !== undefined) {
    // "Providing conclusion will automatically set the status parameter to completed."
    run.conclusion = body.conclusion;
    run.status = 'completed';
  }
  if (body.completed_at !== undefined) run.completedAt = body.completed_at;
  if (run.status === 'completed' && run.completedAt === null) run.completedAt = now;
  const output = body.output;
  if (output === undefined) return;
  if (output.title !== undefined) run.output.title = output.title;
  if (output.summary !== undefined) run.output.summary = output.summary;
  if (output.text !== undefined) run.output.text = output.text;
  if (output.annotations !== undefined && output.annotations.length > 0) {
    run.output.annotations.push(...output.annotations);
    run.annotationBatches += 1;
  }
  if (output.images !== undefined) run.output.images.push(...output.images);
}

const createCheckRun: Handler = (context): Reply => {
  const repo = repoOf(context);
  const body = bodyAs<CheckRunBody & { name: string; head_sha: string }>(context);
  const problem = semanticProblem(context, body);
  if (problem !== undefined) return problem;
  if (repo.gitDir !== undefined && repo.store.typeOf(body.head_sha) !== 'commit') {
    return failure(context, 422, `No commit found for SHA: ${body.head_sha}`, { invalid: true });
  }
  const now = timestamp(context.world.now());
  let suiteId = repo.checkSuites.get(body.head_sha);
  if (suiteId === undefined) {
    suiteId = context.world.ids.take('checkSuite');
    repo.checkSuites.set(body.head_sha, suiteId);
  }
  const run: CheckRun = {
    id: context.world.ids.take('checkRun'),
    name: body.name,
    headSha: body.head_sha,
    status: 'queued',
    conclusion: null,
    startedAt: now,
    completedAt: null,
    detailsUrl: null,
    externalId: '',
    output: { title: null, summary: null, text: null, annotations: [], images: [] },
    suiteId,
    app: appOf(context),
    annotationBatches: 0,
  };
  apply(run, body, now);
  repo.checkRuns.set(run.id, run);
  return json(201, checkRunObject(context, run));
};

const updateCheckRun: Handler = (context) => {
  const run = repoOf(context).checkRuns.get(intParam(context, 'check_run_id'));
  if (run === undefined) return notFound(context);
  const body = bodyAs<CheckRunBody>(context);
  const problem = semanticProblem(context, body, run);
  if (problem !== undefined) return problem;
  apply(run, body, timestamp(context.world.now()));
  return json(200, checkRunObject(context, run));
};

const listForRef: Handler = (context) => {
  const repo = repoOf(context);
  const ref = stringParam(context, 'ref');
  const sha = repo.resolveCommit(ref) ?? ref;
  const name = optionalString(context, 'check_name');
  const status = optionalString(context, 'status');
  const appId = context.params.app_id;
  let runs = [...repo.checkRuns.values()]
    .filter((run) => run.headSha === sha)
    .filter((run) => name === undefined || run.name === name)
    .filter((run) => status === undefined || run.status === status)
    .filter((run) => typeof appId !== 'number' || run.app.id === appId)
    .sort((a, b) => b.id - a.id);
  if (context.params.filter !== 'all') {
    // `latest`: the most recent run of each name.
    const seen = new Set<string>();
    runs = runs.filter((run) => !seen.has(run.name) && seen.add(run.name) !== undefined);
  }
  const page = paginate(runs, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    { total_count: runs.length, check_runs: page.items.map((run) => checkRunObject(context, run)) },
    page.link === undefined ? undefined : { link: page.link },
  );
};

export const checkRunHandlers: Record<string, Handler> = {
  'checks/create': createCheckRun,
  'checks/update': updateCheckRun,
  'checks/list-for-ref': listForRef,
};
