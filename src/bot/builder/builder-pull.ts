import { livePermission, mayRunCommands } from '../../github/collaborator-permission.js';
import type { GitHubClient } from '../../github/github-client.js';
import { appLedgerPath } from '../../memory/app-ledger.js';
import { readJournal } from '../../memory/journal.js';
import { builderRunsIn } from '../../memory/journal-compaction.js';
import { isRecord, type JsonObject } from '../../model/json.js';
import type { Report } from '../../model/report.js';
import type { AppRepository } from '../judged-change.js';

/** The branch `mode: publish` pushes a builder run's work to. */
const BUILDER_BRANCH = /^aureus\/issue-(\d+)-([0-9a-z]+)$/;

/**
 * A pull request of the builder, and who asked for its run. What makes one is decided without
 * trusting the pull request: any pull request whose head branch is named like the builder's is
 * one (naming a branch so only adds a requirement, it lifts none), and its requester is the
 * account the App's own ledger recorded for that issue and run id when it dispatched the run —
 * never an author, a login or a text the pull request carries. When the ledger knows no such
 * run (the App's data folder lost, a branch pushed by hand), the requester is unknown and the
 * pull request's author stands in for it.
 */
export function isBuilderBranch(ref: string): boolean {
  return BUILDER_BRANCH.test(ref);
}

export interface BuilderPull {
  readonly issue: number;
  readonly runId: string;
  /** Account ids whose approval is not independent: the requester, the pull request's author. */
  readonly notIndependent: readonly number[];
}

export interface PullHead {
  readonly number: number;
  readonly user: { readonly id: number } | null;
  readonly head: {
    readonly ref: string;
    readonly sha: string;
    readonly repo: { readonly id: number } | null;
  };
}

export async function builderPullOf(
  dataDir: string,
  repository: AppRepository,
  pull: PullHead,
): Promise<BuilderPull | undefined> {
  const match = BUILDER_BRANCH.exec(pull.head.ref);
  if (match === null) return undefined;
  const issue = Number(match[1]);
  const runId = match[2] ?? '';
  const { entries } = await readJournal(appLedgerPath(dataDir, repository.id));
  const requesters = entries
    // A compaction summary keeps the requesters of the runs it replaced (journal-compaction.ts).
    .flatMap(({ record }) =>
      record.kind === 'compaction' ? builderRunsIn(summaryOf(record)).map(asTrigger) : [record],
    )
    .filter(
      (record) =>
        record.kind === 'builder-trigger' &&
        record.decision === 'accepted' &&
        record.issue === issue &&
        record.run === runId,
    )
    .map((record) => record.actorId)
    .filter((id): id is number => typeof id === 'number');
  const author = pull.user === null ? [] : [pull.user.id];
  return { issue, runId, notIndependent: [...requesters, ...author] };
}

export const BUILDER_SELF_APPROVAL_REPLY =
  'This pull request is the builder’s, from a run you requested: its budget and policy approvals must come from another person with write access.';

/**
 * The approving review of `headSha` by a person independent of the run (neither its requester
 * nor the pull request's author) whose live role is write or higher, if any. Each reviewer's
 * latest review counts: a later request for changes or a dismissal withdraws an approval, and
 * a review of an earlier commit approves nothing pushed since.
 */
export async function independentApprover(
  client: GitHubClient,
  repository: AppRepository,
  pull: PullHead,
  builder: BuilderPull,
): Promise<string | undefined> {
  const coordinates = { owner: repository.owner, repo: repository.repo };
  const reviews = await client.paginate(client.rest.pulls.listReviews, {
    ...coordinates,
    pull_number: pull.number,
    per_page: 100,
  });
  const latest = new Map<number, (typeof reviews)[number]>();
  for (const review of reviews)
    if (review.user !== null && review.state !== 'COMMENTED') latest.set(review.user.id, review);
  for (const [id, review] of latest) {
    if (review.state !== 'APPROVED' || review.commit_id !== pull.head.sha) continue;
    if (builder.notIndependent.includes(id) || review.user === null) continue;
    const permission = await livePermission(client, coordinates, review.user);
    if (mayRunCommands(permission.role)) return review.user.login;
  }
  return undefined;
}

/**
 * The verdict on a builder pull request without an independent approval: it blocks, the reason
 * said beside the others. Decided here rather than in the core, which judges changes, not who
 * asked for them; a change that could not be judged in full stays incomplete.
 */
export function withIndependentApproval(
  report: Report,
  builder: BuilderPull,
  approver: string | undefined,
): Report {
  if (approver !== undefined)
    return {
      ...report,
      reasons: [
        ...report.reasons,
        `builder pull request (issue #${builder.issue}, run ${builder.runId}): @${approver} approved this commit.`,
      ],
    };
  return {
    ...report,
    verdict: report.verdict === 'incomplete' ? 'incomplete' : 'block',
    reasons: [
      ...report.reasons,
      `builder pull request (issue #${builder.issue}, run ${builder.runId}): needs an approving review of this commit by a person with write access other than the run's requester; a new push needs a new approval.`,
    ],
  };
}

function summaryOf(record: JsonObject): JsonObject | undefined {
  const replaced = record.replaced;
  return isRecord(replaced) ? replaced : undefined;
}

function asTrigger(run: JsonObject): JsonObject {
  return { ...run, kind: 'builder-trigger', decision: 'accepted' };
}
