import { objectAt, webhookExample } from '../../support/webhook-examples.js';
import { INSTALLATION_ID } from './app-session.js';

export const OWNER = 'octo';
export const REPO = 'app';
export const REPO_ID = 5150;

/** Points a real payload's repository and installation at the test repository. */
function installed(payload: Record<string, unknown>): Record<string, unknown> {
  Object.assign(objectAt(payload, 'repository'), {
    id: REPO_ID,
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    default_branch: 'main',
  });
  Object.assign(objectAt(objectAt(payload, 'repository'), 'owner'), { login: OWNER });
  payload.installation = {
    id: INSTALLATION_ID,
    node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc3',
  };
  return payload;
}

/** A real `pull_request` payload from @octokit/webhooks-examples for pull request `number`. */
export function pullRequestPayload(
  action: string,
  pull: { number: number; baseSha: string; headSha: string },
): Record<string, unknown> {
  const payload = installed(webhookExample('pull_request', action));
  const pullRequest = objectAt(payload, 'pull_request');
  Object.assign(pullRequest, { number: pull.number });
  Object.assign(objectAt(pullRequest, 'base'), { sha: pull.baseSha, ref: 'main' });
  Object.assign(objectAt(pullRequest, 'head'), { sha: pull.headSha, ref: 'feature' });
  payload.number = pull.number;
  return payload;
}

/** A real `issue_comment.created` payload: `body` by `author` on pull request `number`. */
export function commentPayload(
  number: number,
  body: string,
  author: { login: string; id: number; type: string },
  options: { onPullRequest?: boolean; action?: string; id?: number } = {},
): Record<string, unknown> {
  const payload = installed(webhookExample('issue_comment', 'created'));
  payload.action = options.action ?? 'created';
  const issue = objectAt(payload, 'issue');
  Object.assign(issue, { number });
  if (options.onPullRequest !== false)
    Object.assign(issue, {
      pull_request: { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${number}` },
    });
  const comment = objectAt(payload, 'comment');
  Object.assign(comment, { body, id: options.id ?? 880000 + Math.floor(Math.random() * 10000) });
  Object.assign(objectAt(comment, 'user'), author);
  Object.assign(objectAt(payload, 'sender'), author);
  return payload;
}

/** A real `issues.labeled` payload: `label` added to issue `number` by `sender`. */
export function labeledPayload(
  number: number,
  label: string,
  sender: { login: string; id: number; type: string },
): Record<string, unknown> {
  const payload = installed(webhookExample('issues', 'labeled'));
  Object.assign(objectAt(payload, 'issue'), { number, pull_request: undefined });
  Object.assign(objectAt(payload, 'label'), { name: label });
  Object.assign(objectAt(payload, 'sender'), sender);
  return payload;
}

/** Points a payload at another repository of the same owner and installation. */
export function inRepository(
  payload: Record<string, unknown>,
  repo: { name: string; id: number },
): Record<string, unknown> {
  Object.assign(objectAt(payload, 'repository'), {
    id: repo.id,
    name: repo.name,
    full_name: `${OWNER}/${repo.name}`,
  });
  return payload;
}

/** A real `merge_group.checks_requested` payload for the queue's commit on top of `baseSha`. */
export function mergeGroupPayload(baseSha: string, headSha: string): Record<string, unknown> {
  const payload = installed(webhookExample('merge_group', 'checks_requested'));
  Object.assign(objectAt(payload, 'merge_group'), { base_sha: baseSha, head_sha: headSha });
  return payload;
}

/** A real `check_run.rerequested` payload for a check run the App made. */
export function rerequestPayload(run: {
  id: number;
  headSha: string;
  externalId: string;
  appId: number;
}): Record<string, unknown> {
  const payload = installed(webhookExample('check_run', 'rerequested'));
  const checkRun = objectAt(payload, 'check_run');
  Object.assign(checkRun, { id: run.id, head_sha: run.headSha, external_id: run.externalId });
  Object.assign(objectAt(checkRun, 'app'), { id: run.appId });
  return payload;
}
