import { objectAt, webhookExample } from '../../support/webhook-examples.js';
import { OWNER, REPO } from './pull-request-scenario.js';

export interface Sender {
  readonly login: string;
  readonly id: number;
  readonly type: string;
}

/** Points a real payload's repository at the test repository, as a workflow's event has it. */
function inTestRepository(payload: Record<string, unknown>): Record<string, unknown> {
  Object.assign(objectAt(payload, 'repository'), {
    name: REPO,
    full_name: `${OWNER}/${REPO}`,
    default_branch: 'main',
  });
  Object.assign(objectAt(objectAt(payload, 'repository'), 'owner'), { login: OWNER });
  // A workflow's event names no App installation.
  delete payload.installation;
  return payload;
}

/** A real `issue_comment` payload: `body` by `author` on issue (or pull request) `number`. */
export function issueCommentEvent(
  number: number,
  body: string,
  author: Sender,
  options: { onPullRequest?: boolean; action?: string; commentId?: number } = {},
): Record<string, unknown> {
  const payload = inTestRepository(webhookExample('issue_comment', 'created'));
  payload.action = options.action ?? 'created';
  const issue = objectAt(payload, 'issue');
  Object.assign(issue, {
    number,
    title: 'Add a greeting',
    body: 'Print a greeting on start.',
    pull_request:
      options.onPullRequest === true
        ? { url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${number}` }
        : undefined,
  });
  const comment = objectAt(payload, 'comment');
  Object.assign(comment, { body, id: options.commentId ?? 880001 });
  Object.assign(objectAt(comment, 'user'), author);
  Object.assign(objectAt(payload, 'sender'), author);
  return payload;
}

/** A real `issues.labeled` payload: `label` added to issue `number` by `sender`. */
export function issueLabeledEvent(
  number: number,
  label: string,
  sender: Sender,
): Record<string, unknown> {
  const payload = inTestRepository(webhookExample('issues', 'labeled'));
  Object.assign(objectAt(payload, 'issue'), {
    number,
    title: 'Add a greeting',
    body: 'Print a greeting on start.',
    pull_request: undefined,
  });
  Object.assign(objectAt(payload, 'label'), { name: label });
  Object.assign(objectAt(payload, 'sender'), sender);
  return payload;
}
