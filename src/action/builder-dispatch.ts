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
   * step reads again to check the requester (dispatch-trigger.ts). Required of a dispatch by the
   * job token's account, which every workflow of the repository can act as.
   */
  readonly trigger?: BuilderTrigger;
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
const TRIGGER = /^(comment|label)-([1-9][0-9]{0,15})$/;

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
  // Only the App dispatches the builder: its ledger is then the record of who asked, which is
  // what keeps the requester from approving the result. A person with write access running the
  // workflow by hand would be on no record, and could approve their own run's pull request.
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
  // The job token's account (github-actions[bot]) is what any workflow of the repository acts as:
  // any writer can dispatch as it, naming anyone. Its dispatch must name the trigger it answers,
  // which the builder step reads again before any model runs. An App's bot acts only for the App,
  // whose own ledger records who asked.
  const trigger = given('trigger')
    ? triggerOf(input('trigger', TRIGGER, 'a trigger (comment-<id> or label-<event id>)'))
    : undefined;
  if (trigger === undefined && dispatcher === GITHUB_ACTIONS_BOT_ID)
    throw new AureusError(
      'the builder workflow was dispatched by github-actions[bot] without the trigger it answers (the dispatch input trigger), so nothing shows who asked for the run.',
      START_PROPERLY,
    );
  // The job token's account is any writer's: a continuation it named would let a writer pick
  // which stopped run's work goes on under someone else's request.
  const resumeFrom = given('resume_from')
    ? Number(input('resume_from', NUMBER, 'a workflow run id'))
    : undefined;
  if (resumeFrom !== undefined && dispatcher === GITHUB_ACTIONS_BOT_ID)
    throw new AureusError(
      'the builder workflow was dispatched by github-actions[bot] with resume_from: only the AUREUS App, which recorded the stopped workflow run, continues a run.',
      'on an issue, ask for a new run with a larger budget (/aureus implement --budget $N), or let the AUREUS App continue the stopped run (/aureus approve-budget).',
    );
  return {
    repository,
    defaultBranch,
    ...(trigger === undefined ? {} : { trigger }),
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

function triggerOf(value: string): BuilderTrigger {
  const [, kind, id] = TRIGGER.exec(value) ?? [];
  return { kind: kind === 'label' ? 'label' : 'comment', id: Number(id) };
}
