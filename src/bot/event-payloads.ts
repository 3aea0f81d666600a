import { installation, repository, repositoryWithBranch } from '../github/issue-event-payloads.js';
import {
  commitSha,
  flag,
  nullable,
  object,
  positiveInteger,
  text,
} from '../github/payload-field.js';

/**
 * Every payload field the App's handlers use, by event, read once at each handler's entry. A
 * signed payload is GitHub's, but its static type is only a promise: a field that is missing,
 * null or of another type throws PayloadShapeError before anything else runs, and the webhook
 * endpoint answers 400 (THREATS row 36). Fields not listed here are never read. The payloads of
 * comments and labels, which the Action reads too, are in issue-event-payloads.ts.
 */

const pullRequestEvent = object({
  action: text,
  installation,
  repository,
  pull_request: object({ number: positiveInteger, head: object({ sha: commitSha }) }),
});

/** A pull request closed: merged into the default branch, it may bring the week's learn proposal. */
const closedPullRequestEvent = object({
  installation,
  repository: repositoryWithBranch,
  pull_request: object({ merged: flag, base: object({ ref: text }) }),
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

export type RepositoryPayload = ReturnType<typeof repository>;
export type InstallationPayload = ReturnType<typeof installation>;
export type PullRequestPayload = ReturnType<typeof pullRequestEvent>;
export type ClosedPullRequestPayload = ReturnType<typeof closedPullRequestEvent>;
export type ReviewPayload = ReturnType<typeof reviewEvent>;
export type MergeGroupPayload = ReturnType<typeof mergeGroupEvent>;
export type CheckRunPayload = ReturnType<typeof checkRunEvent>;

export const readPullRequestPayload = (payload: unknown): PullRequestPayload =>
  pullRequestEvent(payload, 'payload');
export const readClosedPullRequestPayload = (payload: unknown): ClosedPullRequestPayload =>
  closedPullRequestEvent(payload, 'payload');
export const readReviewPayload = (payload: unknown): ReviewPayload =>
  reviewEvent(payload, 'payload');
export const readMergeGroupPayload = (payload: unknown): MergeGroupPayload =>
  mergeGroupEvent(payload, 'payload');
export const readCheckRunPayload = (payload: unknown): CheckRunPayload =>
  checkRunEvent(payload, 'payload');
