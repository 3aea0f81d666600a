import type { BuilderTrigger } from '../github/builder-trigger.js';
import { payloadField as field } from '../github/payload-field.js';
import {
  parseRepositoryName,
  type RepositoryCoordinates,
} from '../github/repository-coordinates.js';
import { AureusError } from '../model/errors.js';
import { GITHUB_ACTIONS_BOT_ID } from './runner-environment.js';

/**
 * The builder's run as the App dispatched it (`.github/workflows/aureus-builder.yml`): which
 * issue, the hash of the snapshot the requester approved, who asked (account id) and the run's
 * id. Read once from the workflow_dispatch payload and checked, since each ends up in a branch
 * name, a comment or an API path.
 */
export interface BuilderDispatch {
  readonly repository: RepositoryCoordinates;
  readonly defaultBranch: string;
  readonly issue: number;
  readonly snapshot: string;
  readonly requester: number;
  readonly runId: string;
  /**
   * The account id of the App's bot, which dispatched the run: the author of the run's
   * tracking comment, the only comment the publish job reads or edits as the run's record.
   */
  readonly dispatcher: number;
  /**
   * What started the run (the `/aureus implement` comment or the label event), which the builder
   * step reads again to check the requester (dispatch-trigger.ts). Every new run names one,
   * whoever dispatched it: no dispatcher is trusted for what its account is.
   */
  readonly trigger?: BuilderTrigger;
  /**
   * A continuation's trigger: the id of the `/aureus approve-budget` comment of a writer other
   * than the requester, which the builder step reads again (dispatch-trigger.ts). Given exactly
   * when `resumeFrom` is.
   */
  readonly approval?: number;
  /** The requester's `--budget $N`: a cap on the run's model spend below the policy's. */
  readonly maxUsd?: number;
  /** The requester's `--budget <n>pt`: a cap on the change's points below the policy's. */
  readonly maxPoints?: number;
  /**
   * A continuation's `resume_from`: the id of the workflow run that stopped for want of budget,
   * which the App recorded when it dispatched that run. Its artifact is the stop's authority
   * (stopped-run-handoff.ts); the Action's dispatch never continues a run.
   */
  readonly resumeFrom?: number;
}

const RUN_ID = /^[0-9a-f]{12}$/;
const SNAPSHOT = /^[0-9a-f]{64}$/;
const NUMBER = /^[1-9][0-9]{0,15}$/;
const DOLLARS = /^\d{1,6}(?:\.\d{1,2})?$/;
const POINTS = /^\d{1,6}$/;
const TRIGGER = /^(comment|label|approval)-([1-9][0-9]{0,15})$/;

const START_PROPERLY =
  'start the builder with /aureus implement (or the builder label) on the issue: the aureus-commands workflow dispatches the run with the trigger it answers.';

export function readBuilderDispatch(eventName: string, payload: unknown): BuilderDispatch {
  if (eventName !== 'workflow_dispatch')
    throw new AureusError(
      `the builder runs on workflow_dispatch, and this workflow ran on ${JSON.stringify(eventName)}.`,
      'trigger aureus-builder.yml from the AUREUS App (/aureus implement on an issue), which dispatches it.',
    );
  const name = field(field(payload, 'repository'), 'full_name');
  const repository = typeof name === 'string' ? parseRepositoryName(name) : undefined;
  const defaultBranch = field(field(payload, 'repository'), 'default_branch');
  if (repository === undefined || typeof defaultBranch !== 'string' || defaultBranch === '')
    throw new AureusError(
      'the workflow event names no repository or default branch.',
      'run AUREUS from a workflow triggered by GitHub (GITHUB_EVENT_PATH must be the event payload).',
    );
  // A person's dispatch is refused: the dispatcher is the author of the run's tracking comment,
  // which the publish job trusts as the run's record, and a person could write it by hand. Being
  // a bot earns nothing beyond that: the trigger below is checked for every dispatcher alike.
  const sender = field(payload, 'sender');
  if (field(sender, 'type') !== 'Bot') {
    const login = field(sender, 'login');
    throw new AureusError(
      `the builder workflow was dispatched by ${typeof login === 'string' ? login : 'someone'}, not by the AUREUS App.`,
      'start the builder with /aureus implement (or the builder label) on the issue: the App dispatches the run and records who asked for it.',
    );
  }
  const dispatcher = field(sender, 'id');
  if (typeof dispatcher !== 'number' || !Number.isSafeInteger(dispatcher) || dispatcher <= 0)
    throw new AureusError(
      'the workflow event names no account id for the App that dispatched it.',
      'start the builder with /aureus implement (or the builder label) on the issue: the App dispatches the run.',
    );
  const inputs = field(payload, 'inputs');
  const input = (key: string, pattern: RegExp, what: string): string => {
    const value = field(inputs, key);
    if (typeof value !== 'string' || !pattern.test(value))
      throw new AureusError(
        `the dispatch input ${key} is ${value === undefined ? 'missing' : JSON.stringify(value)}, not ${what}.`,
        'start the builder from the AUREUS App (/aureus implement on an issue): it dispatches the workflow with issue, snapshot, requester and run_id.',
      );
    return value;
  };
  const given = (key: string) => {
    const value = field(inputs, key);
    return value !== undefined && value !== '';
  };
  // No dispatcher is trusted for what its account is: the job token's account
  // (github-actions[bot]) is what any workflow of the repository acts as, and any other App
  // installed with actions: write (a CI bot, a dependency bot, a compromised App) can dispatch
  // as its own bot, naming any issue, requester and budget. So every dispatch names the trigger
  // it answers, which the builder step reads again from GitHub before any model runs
  // (dispatch-trigger.ts): the same checks for the AUREUS App's bot as for any other account.
  if (!given('trigger'))
    throw new AureusError(
      'the builder workflow was dispatched without the trigger it answers (the dispatch input trigger), so nothing shows who asked for the run.',
      START_PROPERLY,
    );
  const named = triggerOf(
    input(
      'trigger',
      TRIGGER,
      'a trigger (comment-<id>, label-<event id> or approval-<comment id>)',
    ),
  );
  const resumeFrom = given('resume_from')
    ? Number(input('resume_from', NUMBER, 'a workflow run id'))
    : undefined;
  // A continuation answers a writer's /aureus approve-budget, and only a continuation does: a
  // start trigger cannot carry a stopped run on, nor an approval start a run.
  if ((named.kind === 'approval') !== (resumeFrom !== undefined))
    throw new AureusError(
      named.kind === 'approval'
        ? `the dispatch names the approval comment ${named.id} as its trigger, and no stopped run to go on from (resume_from).`
        : `the dispatch goes on from workflow run ${resumeFrom} (resume_from), and names a ${named.kind} as its trigger, not the /aureus approve-budget comment that lets it go on.`,
      'continue a stopped run only through /aureus approve-budget on its issue, which makes the AUREUS App dispatch it with resume_from and trigger approval-<comment id>.',
    );
  // The Action answers /aureus approve-budget on an issue that it does not continue a run: a
  // continuation under the job token's account (github-actions[bot], which any writer's own
  // workflow acts as) would be a writer going on with a stopped run behind the Action's back.
  if (resumeFrom !== undefined && dispatcher === GITHUB_ACTIONS_BOT_ID)
    throw new AureusError(
      `the dispatch goes on from workflow run ${resumeFrom} (resume_from) as github-actions[bot]: with the Action, a stopped run is not continued.`,
      'ask for a new run with a larger budget (/aureus implement --budget $N), or install the AUREUS App, which continues a run a writer approves with /aureus approve-budget.',
    );
  const trigger = named.kind === 'approval' ? undefined : { kind: named.kind, id: named.id };
  return {
    repository,
    defaultBranch,
    ...(trigger === undefined ? {} : { trigger }),
    ...(named.kind === 'approval' ? { approval: named.id } : {}),
    ...(resumeFrom === undefined ? {} : { resumeFrom }),
    ...(given('budget_usd')
      ? { maxUsd: Number(input('budget_usd', DOLLARS, 'an amount of dollars (2.50)')) }
      : {}),
    ...(given('budget_points')
      ? { maxPoints: Number(input('budget_points', POINTS, 'a whole number of points (30)')) }
      : {}),
    issue: Number(input('issue', NUMBER, 'an issue number')),
    snapshot: input('snapshot', SNAPSHOT, 'a snapshot hash (64 hex digits)'),
    requester: Number(input('requester', NUMBER, 'an account id')),
    runId: input('run_id', RUN_ID, 'a run id (12 hex digits)'),
    dispatcher,
  };
}

function triggerOf(value: string): {
  readonly kind: BuilderTrigger['kind'] | 'approval';
  readonly id: number;
} {
  const [, kind, id] = TRIGGER.exec(value) ?? [];
  return {
    kind: kind === 'label' ? 'label' : kind === 'approval' ? 'approval' : 'comment',
    id: Number(id),
  };
}
