import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { field, workflowDocuments } from '../support/workflow-documents.js';

/**
 * Each job that runs AUREUS gets the permissions its mode's API calls need, and no write it does
 * not use: a missing one is a feature that fails on the first real run (a comment never posted,
 * a builder approval that blocks), an extra write is a token a compromised step could use.
 * The needs come from the calls each mode makes (test/fixtures/github-openapi/permissions.json
 * says which permission each call needs); the reason stands beside each.
 */

type Level = 'read' | 'write';
type Permissions = Readonly<Record<string, Level>>;

/** `pull_request` and `pull_request_review`: the gate on a pull request. */
const CHECK_PULL_REQUEST: Permissions = {
  contents: 'read', // the shared ledger's trend chart, the base's policy
  'pull-requests': 'write', // the sticky comment, reviews (approvals), simplification review
  issues: 'read', // a builder's pull request: the issue's comments and events name its requester
  checks: 'write', // the check run with the annotations
};

/** What each mode needs on each event it runs on; `*` is every event. */
const NEEDS: Readonly<Record<string, Readonly<Record<string, Permissions>>>> = {
  check: {
    pull_request: CHECK_PULL_REQUEST,
    pull_request_review: CHECK_PULL_REQUEST,
    // With the shared ledger: its branch, and who approved a loosening (pull requests, reviews).
    push: { contents: 'write', 'pull-requests': 'read', checks: 'write' },
    merge_group: { contents: 'read', checks: 'write' },
    workflow_dispatch: { contents: 'read', checks: 'write' },
    // Commands and the builder label (command-event.ts).
    issue_comment: {
      actions: 'write', // dispatch, cancel and count the builder workflow's runs
      contents: 'read', // the default branch's policy, a pull request's head for simplify
      issues: 'write', // replies, reactions, the tracking comment
      'pull-requests': 'write', // simplify's review
    },
    issues: { actions: 'write', contents: 'read', issues: 'write', 'pull-requests': 'write' },
  },
  // The plan and its estimate on the issue (post-plan-mode.ts).
  'post-plan': { '*': { contents: 'read', issues: 'write' } },
  // The run's branch, its draft pull request, the tracking comment (publish-mode.ts), and the
  // day's builder runs when the run was refused by the daily caps (builder-day-caps.ts).
  publish: {
    '*': { contents: 'write', 'pull-requests': 'write', issues: 'write', actions: 'read' },
  },
  // The proposal's branch and pull request (learn-pull-request.ts).
  learn: { '*': { contents: 'write', 'pull-requests': 'write' } },
  // The builder (`aureus/builder`): the checkout and the issue, and never a write. Where a run
  // starts (`stage: plan` or `all`) also the stopped workflow run a continuation goes on from,
  // and the pull requests that tell a trigger's run left one (builder-steps.ts).
  'builder:plan': {
    '*': { contents: 'read', issues: 'read', actions: 'read', 'pull-requests': 'read' },
  },
  'builder:all': {
    '*': { contents: 'read', issues: 'read', actions: 'read', 'pull-requests': 'read' },
  },
  'builder:act': { '*': { contents: 'read', issues: 'read' } },
};

/** Writes a mode may be given for a setting it has: `simplification.auto_commit` pushes a commit. */
const OPTIONAL: Readonly<Record<string, Permissions>> = {
  check: { contents: 'write' },
};

interface AureusJob {
  readonly where: string;
  readonly mode: string;
  readonly events: readonly string[];
  readonly permissions: Permissions | string;
  readonly sharedLedger: boolean;
}

function eventsOf(on: unknown): string[] {
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.filter((event): event is string => typeof event === 'string');
  return typeof on === 'object' && on !== null ? Object.keys(on) : [];
}

/** The events a job runs on, after an `if:` on `github.event_name`; anything else is refused. */
function jobEvents(events: readonly string[], condition: unknown, where: string): string[] {
  if (typeof condition !== 'string' || !condition.includes('github.event_name')) return [...events];
  const test = /^\s*(?:\$\{\{\s*)?github\.event_name\s*(==|!=)\s*'([a-z_]+)'\s*(?:\}\})?\s*$/.exec(
    condition,
  );
  if (test === null)
    throw new Error(`${where}: cannot tell which events \`if: ${condition}\` lets through`);
  return events.filter((event) => (test[1] === '==') === (event === test[2]));
}

function permissionsOf(value: unknown): Permissions | string {
  if (typeof value === 'string') return value;
  const out: Record<string, Level> = {};
  for (const [key, level] of Object.entries(
    typeof value === 'object' && value !== null ? value : {},
  ))
    if (level === 'read' || level === 'write') out[key] = level;
  return out;
}

/** Every job of `document` with a step that runs AUREUS (this repository's Action or a pin of it). */
function aureusJobs(name: string, document: unknown): AureusJob[] {
  const events = eventsOf(Reflect.get(Object(document), 'on'));
  const workflowPermissions: unknown = Reflect.get(Object(document), 'permissions');
  return Object.entries(field(document, 'jobs') ?? {}).flatMap(([id, job]) => {
    const list = field(job, 'steps');
    const step = (Array.isArray(list) ? list : []).find((candidate: unknown) => {
      const uses: unknown = Reflect.get(Object(candidate), 'uses');
      return typeof uses === 'string' && (uses === './' || /\/aureus(\/builder)?@/.test(uses));
    });
    if (step === undefined) return [];
    const uses = String(Reflect.get(Object(step), 'uses'));
    const inputs = field(step, 'with') ?? {};
    const mode = uses.includes('/builder@')
      ? `builder:${String(inputs.stage ?? 'all').replace(/\s*#.*$/, '')}`
      : String(inputs.mode ?? 'check');
    const where = `${name}, job ${id}`;
    const declared: unknown = Reflect.get(Object(job), 'permissions') ?? workflowPermissions;
    return [
      {
        where,
        mode,
        events: jobEvents(events, Reflect.get(Object(job), 'if'), where),
        permissions: declared === undefined ? 'unset' : permissionsOf(declared),
        sharedLedger: String(inputs['shared-ledger'] ?? 'true') !== 'false',
      },
    ];
  });
}

const rank = (level: Level | undefined): number =>
  level === 'write' ? 2 : level === 'read' ? 1 : 0;

/** What the job needs: the most each permission needs over the events it runs on. */
function needsOf(job: AureusJob): Record<string, Level> | string {
  const byEvent = NEEDS[job.mode];
  if (byEvent === undefined) return `mode ${job.mode} is not one the Action runs`;
  const needed: Record<string, Level> = {};
  for (const event of job.events) {
    let needs = byEvent['*'] ?? byEvent[event];
    if (needs === undefined) return `mode ${job.mode} does not run on ${event}`;
    if (event === 'push' && job.mode === 'check' && !job.sharedLedger)
      needs = { contents: 'read', checks: 'write' };
    for (const [key, level] of Object.entries(needs))
      if (rank(level) > rank(needed[key])) needed[key] = level;
  }
  return needed;
}

/** Every gap between what `job` declares and what its mode needs, said as a fix. */
function permissionGaps(job: AureusJob): string[] {
  const needed = needsOf(job);
  if (typeof needed === 'string') return [`${job.where}: ${needed}`];
  if (typeof job.permissions === 'string')
    return [
      `${job.where}: permissions are ${job.permissions}; declare them: ${JSON.stringify(needed)}`,
    ];
  const declared = job.permissions;
  const gaps: string[] = [];
  for (const [key, level] of Object.entries(needed))
    if (rank(declared[key]) < rank(level))
      gaps.push(
        `${job.where}: grant \`${key}: ${level}\` (${job.mode} on ${job.events.join(', ')})`,
      );
  const optional = OPTIONAL[job.mode] ?? {};
  for (const [key, level] of Object.entries(declared))
    if (rank(level) > Math.max(rank(needed[key]), rank(optional[key])))
      gaps.push(`${job.where}: \`${key}: ${level}\` is more than ${job.mode} uses`);
  return gaps;
}

describe('the permissions of every job that runs AUREUS', () => {
  const jobs = workflowDocuments().flatMap((workflow) =>
    aureusJobs(workflow.name, workflow.document),
  );

  it('finds the jobs: the own gate, the README gate, commands, builder and learn', () => {
    const modes = new Set(jobs.map((job) => job.mode));
    expect([...modes].sort()).toEqual([
      'builder:act',
      'builder:plan',
      'check',
      'learn',
      'post-plan',
      'publish',
    ]);
    expect(jobs.map((job) => job.where)).toEqual(
      expect.arrayContaining([
        '.github/workflows/aureus.yml, job budget',
        '.github/workflows/aureus.yml, job ledger',
      ]),
    );
    expect(jobs.find((job) => job.where.endsWith('job ledger'))?.events).toEqual(['push']);
  });

  it('grant each what its mode calls, and no write it does not use', () => {
    expect(jobs.flatMap(permissionGaps)).toEqual([]);
  });

  it('names the permission a job lacks and the write it does not need', () => {
    const workflow = parse(`
on: [pull_request, issue_comment, push]
jobs:
  gate:
    if: github.event_name != 'push'
    permissions: { contents: read, pull-requests: write, checks: write, actions: write }
    steps:
      - uses: your-org/aureus@0000000000000000000000000000000000000000
  build:
    permissions: { contents: write, issues: read, actions: read, pull-requests: read }
    steps:
      - uses: your-org/aureus/builder@0000000000000000000000000000000000000000
`);
    expect(aureusJobs('sample', workflow).flatMap(permissionGaps)).toEqual([
      'sample, job gate: grant `issues: write` (check on pull_request, issue_comment)',
      'sample, job build: `contents: write` is more than builder:all uses',
    ]);
  });
});
