import { AureusError } from '../model/errors.js';
import { payloadField as field } from './payload-field.js';
import { parseRepositoryName, type RepositoryCoordinates } from './repository-coordinates.js';

/**
 * What AUREUS needs from the event that started a workflow, read once and checked: the commits
 * to compare and, for a pull request, where to comment. Everything else in the payload is
 * ignored, and every string read from it is data (branch names and titles are untrusted).
 */
export type WorkflowTarget =
  | {
      readonly kind: 'pull-request';
      readonly number: number;
      readonly baseSha: string;
      readonly headSha: string;
      /** The branch the pull request targets (untrusted text): whose history the trend shows. */
      readonly baseRef: string;
      /** The head's branch name (untrusted text): where a simplification commit goes. */
      readonly headRef: string;
      /** The head lives in another repository: the token is read-only and secrets are absent. */
      readonly fromFork: boolean;
      readonly title: string;
    }
  | {
      readonly kind: 'push';
      /** null when the push created the branch. */
      readonly before: string | null;
      readonly after: string;
      readonly ref: string;
      readonly defaultBranch: string;
      /** The push deleted the branch: nothing to judge. */
      readonly deleted: boolean;
    }
  | { readonly kind: 'merge-group'; readonly baseSha: string; readonly headSha: string }
  | { readonly kind: 'dispatch' };

export interface WorkflowEvent {
  readonly repository: RepositoryCoordinates;
  readonly target: WorkflowTarget;
}

const ZERO_SHA = /^0+$/;
/**
 * A review (submitted, edited, dismissed) judges its pull request again: an approving review by
 * a maintainer is what lets a loosened policy through, and its payload carries the pull request.
 */
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review']);

export function readWorkflowEvent(eventName: string, payload: unknown): WorkflowEvent {
  const repository = repositoryOf(payload);
  if (PULL_REQUEST_EVENTS.has(eventName)) return { repository, target: pullRequestOf(payload) };
  if (eventName === 'push') return { repository, target: pushOf(payload) };
  if (eventName === 'merge_group') return { repository, target: mergeGroupOf(payload) };
  if (eventName === 'workflow_dispatch') return { repository, target: { kind: 'dispatch' } };
  throw new AureusError(
    `AUREUS does not run on ${JSON.stringify(eventName)} events.`,
    'trigger the workflow on pull_request, pull_request_review, push, merge_group or workflow_dispatch, or on issue_comment and issues for commands and the builder label.',
  );
}

function pullRequestOf(payload: unknown): WorkflowTarget {
  const pull = field(payload, 'pull_request');
  const baseRepo = text(field(field(field(pull, 'base'), 'repo'), 'full_name'), 'base repo');
  const headRepoValue = field(field(pull, 'head'), 'repo');
  // A deleted fork leaves head.repo null: still not this repository.
  const headRepo =
    headRepoValue === null ? null : text(field(headRepoValue, 'full_name'), 'head repo');
  return {
    kind: 'pull-request',
    number: positiveInteger(field(pull, 'number'), 'pull_request.number'),
    baseSha: sha(field(field(pull, 'base'), 'sha'), 'pull_request.base.sha'),
    headSha: sha(field(field(pull, 'head'), 'sha'), 'pull_request.head.sha'),
    baseRef: text(field(field(pull, 'base'), 'ref'), 'pull_request.base.ref'),
    headRef: text(field(field(pull, 'head'), 'ref'), 'pull_request.head.ref'),
    fromFork: headRepo !== baseRepo,
    title: text(field(pull, 'title'), 'pull_request.title'),
  };
}

function pushOf(payload: unknown): WorkflowTarget {
  const before = sha(field(payload, 'before'), 'before');
  const after = sha(field(payload, 'after'), 'after');
  return {
    kind: 'push',
    before: ZERO_SHA.test(before) ? null : before,
    after,
    ref: text(field(payload, 'ref'), 'ref'),
    defaultBranch: text(field(field(payload, 'repository'), 'default_branch'), 'default_branch'),
    deleted: field(payload, 'deleted') === true || ZERO_SHA.test(after),
  };
}

function mergeGroupOf(payload: unknown): WorkflowTarget {
  const group = field(payload, 'merge_group');
  return {
    kind: 'merge-group',
    baseSha: sha(field(group, 'base_sha'), 'merge_group.base_sha'),
    headSha: sha(field(group, 'head_sha'), 'merge_group.head_sha'),
  };
}

function repositoryOf(payload: unknown): RepositoryCoordinates {
  const name = text(field(field(payload, 'repository'), 'full_name'), 'repository.full_name');
  const coordinates = parseRepositoryName(name);
  if (coordinates === undefined) throw malformed('repository.full_name');
  return coordinates;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw malformed(what);
  return value;
}

function sha(value: unknown, what: string): string {
  const id = text(value, what);
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id)) throw malformed(what);
  return id;
}

function positiveInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw malformed(what);
  return value;
}

function malformed(what: string): AureusError {
  return new AureusError(
    `the workflow event has no valid ${what}.`,
    'run AUREUS from a workflow triggered by GitHub (GITHUB_EVENT_PATH must be the event payload).',
  );
}
