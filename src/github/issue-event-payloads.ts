import {
  type FieldReader,
  nullable,
  object,
  PayloadShapeError,
  positiveInteger,
  text,
} from './payload-field.js';

/**
 * The payloads of `issue_comment` and `issues` events, which start commands and the builder in
 * the App and in the Action alike, read once and checked: a field that is missing, null or of
 * another type throws PayloadShapeError before anything else runs (THREATS row 36). Fields not
 * listed here are never read.
 */

/** Owners and repositories as GitHub names them; anything else is not a GitHub repository. */
const repositoryPart: FieldReader<string> = (value, path) => {
  const name = text(value, path);
  if (!/^[A-Za-z0-9-_.]+$/.test(name)) throw new PayloadShapeError(path, 'a repository name');
  return name;
};

export const repository = object({
  id: positiveInteger,
  name: repositoryPart,
  owner: object({ login: repositoryPart }),
});

/** Absent when the webhook is not an installation's (a repository or organisation hook). */
export const installation = nullable(object({ id: positiveInteger }));

const account = object({ id: positiveInteger, login: text, type: text });

export const repositoryWithBranch = object({
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

export type CommentPayload = ReturnType<typeof commentEvent>;
export type LabeledPayload = ReturnType<typeof labeledEvent>;
export type IssuePayload = ReturnType<typeof issue>;
export type Account = ReturnType<typeof account>;

export const readCommentPayload = (payload: unknown): CommentPayload =>
  commentEvent(payload, 'payload');
export const readLabeledPayload = (payload: unknown): LabeledPayload =>
  labeledEvent(payload, 'payload');
