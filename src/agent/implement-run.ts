import { realpath } from 'node:fs/promises';
import { basePolicy } from '../check/policy-at-commit.js';
import { apiKeyVariable, modelFromPolicy } from '../llm/model-from-policy.js';
import type { Spent } from '../llm/spend.js';
import { appendToJournal } from '../memory/journal.js';
import { modelSpendToday } from '../memory/model-spend-today.js';
import { storePaths } from '../memory/store-paths.js';
import { AureusError } from '../model/errors.js';
import type { JsonObject } from '../model/json.js';
import type { Policy } from '../model/policy.js';
import { roundPoints } from '../pricing/points.js';
import { allocationOf } from './plan-estimate.js';
import { type RunStatus, runLoop } from './run-loop.js';

export { allocationOf as planPoints } from './plan-estimate.js';
export { placePlannedRun, plannedRunOf } from './run-handoff.js';
export { BUDGET_STOP, PLANNED } from './run-loop.js';

import { loadState, type RunState, recordAction, runDir, saveState } from './run-memory.js';
import type { RunSimplification } from './run-reflexion.js';
import {
  DECIDING_VOTES,
  type ReviewVote,
  type ReviewVotes,
  reviewVote,
  verifiedVotes,
  votesAllowDone,
} from './run-review.js';
import { createRun, gitText, type NewRun, runPlaceOf } from './run-setup.js';
import { commitRunWork } from './run-verify.js';
import { snapshotTree } from './safety/checkpoints.js';
import { knownSecrets } from './safety/known-secrets.js';
import { protectedPathTest } from './safety/path-authority.js';
import { MIN_SECRET_LENGTH, secretFinder, secretScrubber } from './safety/secret-scrubber.js';
import { builderTools } from './tools/builder-tools.js';

/**
 * `aureus implement`: the one door from the CLI into the builder. Creates the run, runs the
 * loop under the policy of the user's HEAD (the run cannot loosen its own rules), and writes
 * one `builder-run` entry to the local ledger with its estimate, actual cost and spend.
 */

export interface ImplementOptions {
  readonly root: string;
  /** The task of a new run; ignored when `resume` names a run to continue. */
  readonly task: string;
  /** `--resume <id>`: continue that run from its state and its tree as they are. */
  readonly resume?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly yes: boolean;
  /**
   * Asks the operator at a terminal; given only when the run is interactive, where each tier-2
   * action waits for their yes (unless `yes` allows them all).
   */
  readonly confirm?: ((question: string) => Promise<boolean>) | undefined;
  readonly toolVersion: string;
  readonly cwd: string;
  /**
   * Values the scrubber removes although no variable holds them any more: credentials the caller
   * took out of the process before the run (the Action's GitHub token).
   */
  readonly secrets?: readonly string[] | undefined;
  /**
   * A cap on the run's model spend, in dollars, set by whoever asked for the run: it lowers
   * `cost_thresholds.max_usd_per_run` for this run, never raises it.
   */
  readonly maxUsd?: number | undefined;
  /**
   * A cap on the change's points set by whoever asked for the run: it lowers
   * `budgets.change.block` for this run, never raises it. A change within the policy's block but
   * over this one stops the run (`stopped at the requested budget`) with its work.
   */
  readonly maxPoints?: number | undefined;
  /** Ends the run once its plan is accepted (`planned`), to go on later with `resume`. */
  readonly stopAfterPlan?: boolean | undefined;
}

/** `schemas/implement-report.schema.json` describes it. */
export interface ImplementReport {
  /** 2: the votes are correctness, test quality, elegance and the advisory review. */
  readonly schemaVersion: 2;
  readonly id: string;
  readonly status: RunStatus;
  readonly branch: string;
  readonly startCommit: string;
  readonly commits: readonly string[];
  readonly files: readonly string[];
  /** The accepted plan (steps, files, estimate) as the model submitted it, scrubbed. */
  readonly plan: JsonObject | null;
  /** The plan's estimate as the planner gave it, and priced into points. */
  readonly estimate: unknown;
  readonly estimatedPoints: number | null;
  /** The branch's cost by aureus check at the last verification. */
  readonly points: number | null;
  readonly budget: number;
  /** At `stopped at the requested budget`: the points the run needs to go on. */
  readonly needsPoints?: number;
  readonly verdict: string | null;
  readonly tests: { readonly argv: readonly string[]; readonly exitCode: number | null } | null;
  /** Reflexion's verified patches, committed on the branch after Verify passed. */
  readonly simplifications: readonly RunSimplification[];
  readonly spend: Spent;
  /** What the whole run spent, its earlier invocations included (resumed or continued). */
  readonly runSpend: { readonly tokens: number; readonly usd: number };
  readonly summary: string;
  /**
   * The votes on the finished change: correctness, test quality, elegance, and the model's
   * review (advisory).
   */
  readonly votes: ReviewVotes;
  /** Which votes decide that the run is done. */
  readonly decidedBy: string;
}

const MAX_RESULT_BYTES = 16 * 1024;
const MAX_FILE_BYTES = 512 * 1024;
const TEST_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * A scrubber of the secrets AUREUS knows of in `root` and the environment, plus `secrets`: for a
 * caller that ships a run's text elsewhere (the Action's artifact), which the run's own
 * commands could have rewritten on disk after AUREUS scrubbed it.
 */
export async function runTextScrubber(
  root: string,
  secrets: readonly string[],
): Promise<(text: string) => string> {
  return secretScrubber([...(await knownSecrets({ tree: root, env: process.env })), ...secrets]);
}

export async function implement(options: ImplementOptions): Promise<ImplementReport> {
  const root = await realpath(options.root);
  const resumed = options.resume === undefined ? null : await resumeRun(root, options.resume);
  const head = resumed?.state.startCommit ?? (await gitText(root, ['rev-parse', 'HEAD']));
  const ownPolicy = (await basePolicy(root, head, { cwd: options.cwd })).policy;
  const policy = withRunCap(ownPolicy, options);
  const provider = policy.model_provider;
  if (provider.provider === 'none')
    throw new AureusError(
      'aureus implement needs a model, and model_provider.provider is none.',
      'set model_provider.provider (anthropic or openai-compatible) and model_provider.model in .aureus/policy.yaml, commit it, and export the API key.',
    );
  const keyVariable = apiKeyVariable(provider.provider, provider.api_key_env);
  const model = modelFromPolicy(policy, {
    env: options.env,
    spentTodayUsd: await modelSpendToday(root, new Date()),
    ...(resumed === null
      ? {}
      : { spentBeforeResume: { tokens: resumed.state.tokens, usd: resumed.state.dollars } }),
  });
  const alsoSecret = [
    keyVariable,
    ...provider.fallback.map((each) => each.api_key_env ?? ''),
  ].filter((name) => name !== '');
  // The checkout's secrets first, before the run exists: a credential file that cannot be read
  // whole refuses the run with nothing created. Its commands can read the checkout too.
  const ofCheckout = await knownSecrets({ tree: root, env: process.env, alsoSecret });
  const run = resumed?.run ?? (await createRun(root, options.task));
  const { place } = run;
  const secrets = [
    ...ofCheckout,
    ...(await knownSecrets({ tree: place.tree, env: process.env, alsoSecret })),
    ...(options.secrets ?? []),
  ];
  const scrub = secretScrubber(secrets);
  const tools = builderTools(
    {
      tree: await realpath(place.tree),
      isProtected: protectedPathTest(policy.permissions.protected_paths),
      maxFileBytes: MAX_FILE_BYTES,
      maxResultBytes: MAX_RESULT_BYTES,
    },
    place,
    {
      allowed: [
        ...policy.permissions.allowed_commands,
        ...(policy.project.stack.test_command.length > 0
          ? [policy.project.stack.test_command]
          : []),
      ],
      timeoutMs: TEST_TIMEOUT_MS,
      alsoSecret,
    },
  );
  const state: RunState = resumed?.state ?? {
    id: place.id,
    task: options.task,
    branch: run.branch,
    startCommit: run.startCommit,
    phase: 'gather' as const,
    turns: 0,
    iteration: 0,
    spentPoints: 0,
    tokens: 0,
    dollars: 0,
    checkpoints: [],
    plan: null,
  };
  await saveState(run.memory, state);
  await recordAction(run.memory, {
    kind: resumed !== null ? 'resume' : 'start',
    branch: run.branch,
    start: run.startCommit,
    ...(resumed === null ? {} : { treeAsLastCheckpoint: resumed.treeAsLastCheckpoint }),
  });
  const outcome = await runLoop(
    {
      root,
      place,
      branch: run.branch,
      startCommit: run.startCommit,
      policy,
      toolVersion: options.toolVersion,
      alsoSecret,
      scrub,
      holdsSecret: secretFinder(secrets),
      maxOutputBytes: MAX_RESULT_BYTES,
      testTimeoutMs: TEST_TIMEOUT_MS,
      model,
      memory: run.memory,
      tools,
      approval: options.yes ? 'yes-flag' : options.confirm === undefined ? 'none' : 'ask',
      ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
      ...(policy.budgets.change.block < ownPolicy.budgets.change.block
        ? { policyBlock: ownPolicy.budgets.change.block }
        : {}),
      stopAfterPlan: options.stopAfterPlan,
    },
    state,
  );
  // A run that stopped keeps what it did: its work so far is committed on its branch.
  if (outcome.status !== 'done')
    await commitRunWork(place, `Builder: partial work, ${outcome.status}`);
  const estimatedPoints = allocationOf(outcome.state.plan, policy);
  const verified = await verifiedVotes(
    {
      root,
      place,
      startCommit: run.startCommit,
      branch: run.branch,
      policy,
      alsoSecret,
      timeoutMs: TEST_TIMEOUT_MS,
      maxOutputBytes: MAX_RESULT_BYTES,
      estimatedPoints,
      unapplied: outcome.unapplied,
    },
    outcome.verification,
  );
  // Done only when the deciding votes pass the branch as it ends (DECIDING_VOTES).
  const status =
    outcome.status === 'done' &&
    (outcome.verification?.passed !== true || !votesAllowDone(verified))
      ? 'failed verification'
      : outcome.status;
  const review: ReviewVote =
    status === 'done'
      ? await reviewVote({
          root,
          task: outcome.state.task,
          startCommit: run.startCommit,
          branch: run.branch,
          policy,
          model,
          scrub,
          memory: run.memory,
        })
      : { vote: 'not run', reasons: [`the run did not finish: ${status}.`] };
  const votes: ReviewVotes = { ...verified, review };
  const commits = (
    await gitText(root, ['rev-list', '--reverse', `${run.startCommit}..${run.branch}`])
  )
    .split('\n')
    .filter((line) => line !== '');
  const files = (await gitText(root, ['diff', '--name-only', run.startCommit, run.branch]))
    .split('\n')
    .filter((line) => line !== '');
  const report = outcome.verification?.report ?? null;
  const spend = model.spent();
  const result: ImplementReport = {
    schemaVersion: 2,
    id: place.id,
    status,
    branch: run.branch,
    startCommit: run.startCommit,
    commits,
    files,
    plan: outcome.state.plan,
    estimate: outcome.state.plan?.estimate ?? null,
    estimatedPoints,
    points: report?.cost.total ?? null,
    budget: policy.budgets.change.block,
    ...(outcome.needsPoints === undefined ? {} : { needsPoints: outcome.needsPoints }),
    verdict: report?.verdict ?? null,
    tests:
      outcome.verification?.tests === null || outcome.verification === null
        ? null
        : {
            argv: outcome.verification.tests.argv,
            exitCode: outcome.verification.tests.run.exitCode,
          },
    simplifications: outcome.simplified,
    spend,
    runSpend: { tokens: outcome.state.tokens, usd: outcome.state.dollars },
    summary: outcome.summary,
    votes,
    decidedBy: DECIDING_VOTES,
  };
  await recordAction(run.memory, { kind: 'end', status });
  await appendToJournal(storePaths(root).ledger, {
    kind: 'builder-run',
    id: place.id,
    branch: run.branch,
    start: run.startCommit,
    status,
    estimate: outcome.state.plan?.estimate ?? null,
    estimatedPoints: result.estimatedPoints,
    points: result.points,
    // What the cost model learns from: how far the branch's cost was from the plan's.
    variance:
      result.points === null || result.estimatedPoints === null
        ? null
        : roundPoints(result.points - result.estimatedPoints),
    verdict: result.verdict,
    simplifications: outcome.simplified.length,
    votes: {
      correctness: { ...votes.correctness, reasons: [...votes.correctness.reasons] },
      testQuality: { ...votes.testQuality, reasons: [...votes.testQuality.reasons] },
      elegance: { ...votes.elegance, reasons: [...votes.elegance.reasons] },
      review: { ...votes.review, reasons: [...votes.review.reasons] },
    },
    decidedBy: DECIDING_VOTES,
    modelSpend: { ...spend },
    toolVersion: options.toolVersion,
  });
  return result;
}

/**
 * A stopped run (Ctrl-C, kill -9, a cap) as it was left: its state.json and its tree. The tree
 * is kept as it is: a write applied after the last checkpoint but never recorded is in it, and
 * the trajectory says so (the tree differs from that checkpoint), so nothing is lost or redone.
 */
async function resumeRun(
  root: string,
  id: string,
): Promise<{ run: NewRun; state: RunState; treeAsLastCheckpoint: boolean | null }> {
  const memory = await runDir(root, id);
  const state = await loadState(memory);
  const place = await runPlaceOf(root, id);
  const present = await gitText(place.tree, ['rev-parse', '--show-toplevel']).catch(() => '');
  if (present === '')
    throw new AureusError(
      `run ${id} has no tree left at ${place.tree}.`,
      'start a new run; its branch, if any, still holds what it committed.',
    );
  const last = state.checkpoints.at(-1);
  const treeAsLastCheckpoint =
    last === undefined
      ? null
      : (await snapshotTree(place)) === (await gitText(root, ['rev-parse', `${last}^{tree}`]));
  return {
    run: { place, memory, branch: state.branch, startCommit: state.startCommit },
    state,
    treeAsLastCheckpoint,
  };
}

/** The policy with the caller's caps applied: the lower of each two caps holds. */
function withRunCap(policy: Policy, options: ImplementOptions): Policy {
  const usd = options.maxUsd;
  const points = options.maxPoints;
  const thresholds = policy.cost_thresholds;
  const change = policy.budgets.change;
  return {
    ...policy,
    cost_thresholds:
      usd === undefined || usd >= thresholds.max_usd_per_run
        ? thresholds
        : { ...thresholds, max_usd_per_run: usd },
    budgets:
      points === undefined || points >= change.block
        ? policy.budgets
        : {
            ...policy.budgets,
            change: { warn: Math.min(change.warn, points), block: points },
          },
  };
}

/**
 * The values of `env`'s variables except those `isPublic` names (the caller gave them to the
 * run, or they are public metadata) and those too short for the scrubber to remove: what a
 * process that starts the builder without them passes on as `secrets`, since the run's commands
 * can still read the starter's environment in /proc, and a credential's name need not say it is
 * one (`SLACK_WEBHOOK_URL`, `SENTRY_DSN`, `DATABASE_URL`).
 */
export function secretValuesOf(
  env: NodeJS.ProcessEnv,
  isPublic: (name: string) => boolean,
): string[] {
  return Object.entries(env).flatMap(([name, value]) =>
    value !== undefined && value.length >= MIN_SECRET_LENGTH && !isPublic(name) ? [value] : [],
  );
}
