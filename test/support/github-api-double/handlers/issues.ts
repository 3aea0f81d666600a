import {
  actor,
  apiRepoUrl,
  bodyAs,
  characterCount,
  type Handler,
  type HandlerContext,
  intParam,
  json,
  notFound,
  repoOf,
  validationFailed,
} from '../context.js';
import { HTML_URL, nodeId, userObject } from '../github-objects.js';
import { paginate } from '../pagination.js';
import { type Issue, recordEdit, syntheticId, timestamp } from '../state.js';
import { MAX_COMMENT_CHARACTERS } from './issue-comments.js';

/** `issues/get`: an issue the test added (`addIssue`); pull requests are not served as issues. */
const getIssue: Handler = (context) => {
  const repo = repoOf(context);
  const issue = repo.issues.get(intParam(context, 'issue_number'));
  if (issue === undefined) return notFound(context);
  return json(200, issueObject(context, issue));
};

/** GitHub refuses an issue body past the comment limit, with a 422 naming the field. */
function tooLong(context: HandlerContext, body: string | undefined) {
  if (body === undefined || characterCount(body) <= MAX_COMMENT_CHARACTERS) return undefined;
  return validationFailed(
    context,
    'Issue',
    'body',
    `body is too long (maximum is ${MAX_COMMENT_CHARACTERS} characters)`,
    { code: 'custom' },
  );
}

/** `issues/create`: numbered after every pull request and issue of the repository, as GitHub does. */
const createIssue: Handler = (context) => {
  const repo = repoOf(context);
  const body = bodyAs<{ title: string | number; body?: string | null }>(context);
  const refused = tooLong(context, body.body ?? undefined);
  if (refused !== undefined) return refused;
  const number = Math.max(0, ...repo.pulls.keys(), ...repo.issues.keys()) + 1;
  const now = timestamp(context.world.now());
  const issue: Issue = {
    number,
    title: String(body.title),
    body: body.body ?? null,
    user: actor(context),
    createdAt: now,
    updatedAt: now,
    state: 'open',
  };
  repo.issues.set(number, issue);
  return json(201, issueObject(context, issue));
};

/** `issues/update`: title, body and state, the fields AUREUS edits. */
const updateIssue: Handler = (context) => {
  const repo = repoOf(context);
  const issue = repo.issues.get(intParam(context, 'issue_number'));
  if (issue === undefined) return notFound(context);
  const body = bodyAs<{
    title?: string | number | null;
    body?: string | null;
    state?: 'open' | 'closed';
  }>(context);
  const refused = tooLong(context, body.body ?? undefined);
  if (refused !== undefined) return refused;
  if (body.title !== undefined && body.title !== null && String(body.title) !== issue.title) {
    // GitHub records a title change as a `renamed` event; a body edit leaves no event.
    repo.issueEvents.push({
      id: context.world.ids.take('issueEvent'),
      issueNumber: issue.number,
      event: 'renamed',
      from: issue.title,
      to: String(body.title),
      actor: actor(context),
      createdAt: timestamp(context.world.now()),
    });
    issue.title = String(body.title);
  }
  if (body.body !== undefined && body.body !== issue.body) {
    recordEdit(issue, {
      editedAt: timestamp(context.world.now()),
      editor: actor(context),
      diff: body.body ?? '',
    });
    issue.body = body.body;
  }
  if (body.state !== undefined) issue.state = body.state;
  issue.updatedAt = timestamp(context.world.now());
  return json(200, issueObject(context, issue));
};

function issueObject(context: HandlerContext, issue: Issue): Record<string, unknown> {
  const repo = repoOf(context);
  const url = `${apiRepoUrl(context)}/issues/${issue.number}`;
  return {
    id: syntheticId(`${repo.fullName}#issue-${issue.number}`),
    node_id: nodeId('Issue', `${repo.fullName}#${issue.number}`),
    url,
    repository_url: apiRepoUrl(context),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${HTML_URL}/${repo.fullName}/issues/${issue.number}`,
    number: issue.number,
    state: issue.state ?? 'open',
    title: issue.title,
    body: issue.body,
    user: userObject(context.world.apiUrl, issue.user),
    labels: [],
    assignee: null,
    assignees: [],
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: [...repo.issueComments.values()].filter((c) => c.issueNumber === issue.number).length,
    closed_at: issue.state === 'closed' ? issue.updatedAt : null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    author_association: 'MEMBER',
  };
}

/** `issues/list-events`: labels added to an issue and its title changes, oldest first. */
const listEvents: Handler = (context) => {
  const repo = repoOf(context);
  const issueNumber = intParam(context, 'issue_number');
  const events = repo.issueEvents.filter((event) => event.issueNumber === issueNumber);
  const page = paginate(events, context.params, context.url, context.world.apiUrl);
  return json(
    200,
    page.items.map((event) => ({
      id: event.id,
      node_id: nodeId(event.event === 'labeled' ? 'LabeledEvent' : 'RenamedTitleEvent', event.id),
      url: `${apiRepoUrl(context)}/issues/events/${event.id}`,
      actor: userObject(context.world.apiUrl, event.actor),
      event: event.event,
      commit_id: null,
      commit_url: null,
      created_at: event.createdAt,
      performed_via_github_app: null,
      ...(event.event === 'labeled'
        ? { label: { name: event.label, color: 'ededed' } }
        : { rename: { from: event.from, to: event.to } }),
    })),
    page.link === undefined ? undefined : { link: page.link },
  );
};

export const issueHandlers: Record<string, Handler> = {
  'issues/get': getIssue,
  'issues/create': createIssue,
  'issues/update': updateIssue,
  'issues/list-events': listEvents,
};
