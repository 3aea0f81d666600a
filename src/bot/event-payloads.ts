import {
  commitSha,
  type FieldReader,
  nullable,
  object,
  PayloadShapeError,
  positiveInteger,
  text,
} from '../github/payload-field.js';

/**
 * Every payload field the App's handlers use, by event, read once at each handler's entry. A
 * signed payload is GitHub's, but its static type is only a promise: a field that is missing,
 * null or of another type throws PayloadShapeError before anything else runs, and the webhook
 * endpoint answers 400 (THREATS row 36). Fields not listed here are never read.
 */

/** Owners and repositories as GitHub names them; anything else is not a GitHub repository. */
const repositoryPart: FieldReader<string> = (value, path) => {
  const name = text(value, path);
  if (!/^[A-Za-z0-9-_.]+$/.test(name)) throw new PayloadShapeError(path, 'a repository name');
  return name;
};

const repository = object({
  id: positiveInteger,
  name: repositoryPart,
  owner: object({ login: repositoryPart }),
});

/** Absent when the webhook is not an installation's (a repository or organisation hook). */
const installation = nullable(object({ id: positiveInteger }));

const account = object({ id: positiveInteger, login: text, type: text });

const pullRequestEvent = object({
  action: text,
  installation,
  repository,
  pull_request: object({ number: positiveInteger, head: object({ sha: commitSha }) }),
});

/** A review submitted or dismissed: the pull request's head branch says if it is the builder's. */
const reviewEvent = object({
  action: text,
  installation,
  repository,
  pull_request: object({
    number: positiveInteger,
    head: object({ sha: commitSha, ref: text }),
  }),
});

const mergeGroupEvent = object({
  installation,
  repository,
  merge_group: object({ base_sha: commitSha, head_sha: commitSha }),
});

const checkRunEvent = object({
  installation,
  repository,
  check_run: object({
    head_sha: commitSha,
    external_id: nullable(text),
    app: nullable(object({ id: positiveInteger })),
  }),
});

const repositoryWithBranch = object({
  id: positiveInteger,
  name: repositoryPart,
  owner: object({ login: repositoryPart }),
  default_branch: text,
});

/** The issue as it was when the event was sent: the builder's snapshot binds to it. */
const issue = object({
  number: positiveInteger,
  title: text,
  body: nullable(text),
  updated_at: text,
  // Issues and pull requests share comments; a pull request's issue has this object.
  pull_request: nullable(object({})),
});

const commentEvent = object({
  action: text,
  installation,
  sender: account,
  repository: repositoryWithBranch,
  issue,
  comment: object({ id: positiveInteger, body: text, user: account }),
});

const labeledEvent = object({
  action: text,
  installation,
  sender: account,
  repository: repositoryWithBranch,
  issue,
  label: nullable(object({ name: text })),
});

export type RepositoryPayload = ReturnType<typeof repository>;
export type InstallationPayload = ReturnType<typeof installation>;
export type PullRequestPayload = ReturnType<typeof pullRequestEvent>;
export type ReviewPayload = ReturnType<typeof reviewEvent>;
export type MergeGroupPayload = ReturnType<typeof mergeGroupEvent>;
export type CheckRunPayload = ReturnType<typeof checkRunEvent>;
export type CommentPayload = ReturnType<typeof commentEvent>;
export type LabeledPayload = ReturnType<typeof labeledEvent>;
export type IssuePayload = ReturnType<typeof issue>;
export type Account = ReturnType<typeof account>;

export const readPullRequestPayload = (payload: unknown): PullRequestPayload =>
  pullRequestEvent(payload, 'payload');
export const readReviewPayload = (payload: unknown): ReviewPayload =>
  reviewEvent(payload, 'payload');
export const readMergeGroupPayload = (payload: unknown): MergeGroupPayload =>
  mergeGroupEvent(payload, 'payload');
export const readCheckRunPayload = (payload: unknown): CheckRunPayload =>
  checkRunEvent(payload, 'payload');
export const readCommentPayload = (payload: unknown): CommentPayload =>
  commentEvent(payload, 'payload');
export const readLabeledPayload = (payload: unknown): LabeledPayload =>
  labeledEvent(payload, 'payload');
