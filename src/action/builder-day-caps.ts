import { BUILDER_WORKFLOW, cents } from '../github/builder-trigger.js';
import type { GitHubClient } from '../github/github-client.js';
import { statusOf } from '../github/request-error.js';
import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { builderRunsOfDay, DAY_MS } from './builder-day-runs.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import { GITHUB_ACTIONS_BOT_ID } from './runner-environment.js';

/**
 * The day's caps, read again where the run starts: the dispatch checked them (the App from its
 * ledger, the Action from the workflow's runs), but a dispatch the App never made (a writer's
 * workflow dispatching as github-actions[bot], another App's bot), or a trigger dispatched again
 * after its first run failed before publishing, was counted by no one. So before any model runs
 * the builder step counts, as the Action's dispatch does, the builder workflow's runs GitHub
 * numbered before this one in the last 24 hours, each at its whole `max_usd_per_run` (no run's
 * bill is known), and refuses when they and this run's own cap would pass `max_usd_per_day`.
 * The runs list names no requester: runs-per-person (`max_runs_per_actor_per_day`) is read again
 * only for a dispatch by github-actions[bot], which the Action's dispatch counted the same way
 * (every run as everyone's); the App counts it per requester from its own ledger.
 */
export async function refuseOverDailyCaps(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  policy: Policy,
  workflowRun: { readonly id: number; readonly now: number },
): Promise<void> {
  const refusal = await dailyCapRefusal(client, dispatch, policy, workflowRun);
  if (refusal !== undefined) throw refusal;
}

/**
 * The refusal refuseOverDailyCaps throws, or undefined when the day's caps let the run start.
 * The publish job asks it again of a run that left no report, to say on the issue why: GitHub's
 * list of runs, not anything the run left, is its evidence (the runs GitHub numbered before this
 * workflow run only leave the window as time passes, so a refusal found then was one at the plan).
 * GitHub's refusal to list the runs is thrown as an AureusError naming the permission.
 */
export async function dailyCapRefusal(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  policy: Policy,
  workflowRun: { readonly id: number; readonly now: number },
): Promise<AureusError | undefined> {
  if (!Number.isSafeInteger(workflowRun.id) || workflowRun.id <= 0)
    throw new AureusError(
      "the builder step cannot tell its own workflow run (GITHUB_RUN_ID is not set), so it cannot count the day's runs before it.",
      'run the builder step in a GitHub Actions job, where the runner sets GITHUB_RUN_ID.',
    );
  let created: readonly number[];
  try {
    created = await builderRunsOfDay(client, dispatch.repository, {
      now: workflowRun.now,
      before: workflowRun.id,
    });
  } catch (error) {
    const status = statusOf(error);
    if (status === undefined) throw error;
    throw new AureusError(
      `GitHub refused to list the runs of ${BUILDER_WORKFLOW} (${status}), which the builder step counts cost_thresholds.max_usd_per_day from before any model runs.`,
      'grant the plan job actions: read, as the workflow aureus init --builder writes does.',
    );
  }
  const { max_usd_per_run: perRun, max_usd_per_day: dayCap } = policy.cost_thresholds;
  const own = dispatch.maxUsd ?? perRun;
  const committed = cents(created.length * perRun);
  if (committed + own > dayCap) {
    // The day's spend frees as runs turn a day old: this run fits once enough of the oldest have.
    const over = created.length - Math.floor(cents(dayCap - own) / perRun);
    const at = created[Math.max(0, Math.min(created.length, over) - 1)];
    return new AureusError(
      `cost_thresholds.max_usd_per_day ($${dayCap}) is reached: the ${created.length} run${created.length === 1 ? '' : 's'} of ${BUILDER_WORKFLOW} dispatched in the 24 hours before this one may spend up to $${committed} (each at its whole max_usd_per_run, $${perRun}), and this run up to $${own}.${at === undefined || own > dayCap ? '' : ` It fits from ${new Date(at + DAY_MS).toISOString()}, when enough of them are a day old.`}`,
      'start a new run with /aureus implement (with a smaller --budget) once the day allows it, or raise cost_thresholds.max_usd_per_day in the default branch policy.',
    );
  }
  const perActor = policy.cost_thresholds.max_runs_per_actor_per_day;
  if (dispatch.dispatcher === GITHUB_ACTIONS_BOT_ID && created.length >= perActor)
    return new AureusError(
      `cost_thresholds.max_runs_per_actor_per_day (${perActor}) is reached: ${BUILDER_WORKFLOW} ran ${created.length} times in the 24 hours before this run, and a run dispatched by github-actions[bot] cannot be told apart by requester, so each counts as everyone's.`,
      `start a new run with /aureus implement from ${new Date((created[created.length - perActor] ?? workflowRun.now) + DAY_MS).toISOString()}, or use the AUREUS App, which counts runs per requester.`,
    );
  return undefined;
}
