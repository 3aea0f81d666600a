import { apiRepoUrl, type Handler, intParam, json, notFound, repoOf } from '../context.js';
import { HTML_URL, nodeId, userObject } from '../github-objects.js';
import { syntheticId } from '../state.js';

/** `issues/get`: an issue the test added (`addIssue`); pull requests are not served as issues. */
const getIssue: Handler = (context) => {
  const repo = repoOf(context);
  const issue = repo.issues.get(intParam(context, 'issue_number'));
  if (issue === undefined) return notFound(context);
  const url = `${apiRepoUrl(context)}/issues/${issue.number}`;
  return json(200, {
    id: syntheticId(`${repo.fullName}#issue-${issue.number}`),
    node_id: nodeId('Issue', `${repo.fullName}#${issue.number}`),
    url,
    repository_url: apiRepoUrl(context),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${HTML_URL}/${repo.fullName}/issues/${issue.number}`,
    number: issue.number,
    state: 'open',
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
    closed_at: null,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    author_association: 'MEMBER',
  });
};

export const issueHandlers: Record<string, Handler> = { 'issues/get': getIssue };
