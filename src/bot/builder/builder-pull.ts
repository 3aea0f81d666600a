import { type BuilderPull, builderRunOfBranch } from '../../github/builder-pull-approval.js';
import { appLedgerPath } from '../../memory/app-ledger.js';
import { readJournal } from '../../memory/journal.js';
import { builderRunsIn } from '../../memory/journal-compaction.js';
import { isRecord, type JsonObject } from '../../model/json.js';
import type { AppRepository } from '../judged-change.js';

export interface PullHead {
  readonly number: number;
  readonly user: { readonly id: number } | null;
  readonly head: {
    readonly ref: string;
    readonly sha: string;
    readonly repo: { readonly id: number } | null;
  };
}

/**
 * A pull request of the builder, and who asked for its run (builder-pull-approval.ts says what
 * makes one). Its requester is the account the App's own ledger recorded for that issue and run
 * id when it dispatched the run. When the ledger knows no such run (the App's data folder lost,
 * a branch pushed by hand), the requester is unknown and the pull request's author stands in.
 */
export async function builderPullOf(
  dataDir: string,
  repository: AppRepository,
  pull: PullHead,
): Promise<BuilderPull | undefined> {
  const run = builderRunOfBranch(pull.head.ref);
  if (run === undefined) return undefined;
  const { issue, runId } = run;
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

function summaryOf(record: JsonObject): JsonObject | undefined {
  const replaced = record.replaced;
  return isRecord(replaced) ? replaced : undefined;
}

function asTrigger(run: JsonObject): JsonObject {
  return { ...run, kind: 'builder-trigger', decision: 'accepted' };
}
