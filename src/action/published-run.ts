import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUDGET_STOP } from '../agent/implement-run.js';
import { checkChange } from '../check/check-change.js';
import { basePolicy } from '../check/policy-at-commit.js';
import { runGit } from '../git/git-runner.js';
import {
  commitSha,
  type FieldReader,
  nullable,
  object,
  PayloadShapeError,
  payloadField,
  positiveInteger,
  text,
} from '../github/payload-field.js';
import { AureusError } from '../model/errors.js';
import { isParsedJsonObject, type JsonObject } from '../model/json.js';
import type { Report } from '../model/report.js';
import type { BuilderDispatch } from './builder-dispatch.js';
import { RUN_BUNDLE, RUN_REPORT, readArtifactFile } from './run-artifact.js';
import { commitRefusals, importBundle } from './run-bundle-checks.js';

/** report.json is a few kilobytes; anything far larger is not one the builder wrote. */
const MAX_REPORT_BYTES = 1024 * 1024;
/** The bundle is compressed history of one run; the patch caps apply to what it unpacks to. */
const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

const count: FieldReader<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new PayloadShapeError(path, 'a number of at least 0');
  return value;
};

/** A vote as the run reported it; its words are the run's, shown escaped. */
const vote = object({
  vote: text,
  reasons: (value, path) => {
    if (!Array.isArray(value)) throw new PayloadShapeError(path, 'an array of strings');
    return value.map((each, index) => text(each, `${path}[${index}]`));
  },
});
const commits: FieldReader<readonly string[]> = (value, path) => {
  if (!Array.isArray(value)) throw new PayloadShapeError(path, 'a list of commits');
  return value.map((each, index) => commitSha(each, `${path}[${index}]`));
};

/** The plan's steps, when the report holds them as text: shown, never trusted. */
const planSteps: FieldReader<readonly string[]> = (value) => {
  const steps = payloadField(value, 'steps');
  return Array.isArray(steps)
    ? steps.filter((step): step is string => typeof step === 'string').slice(0, MAX_PLAN_STEPS)
    : [];
};

const MAX_PLAN_STEPS = 20;
/** The plan a continuation starts from: a plan the model may submit is far smaller. */
const MAX_PLAN_BYTES = 8 * 1024;

/** The whole plan, for a continuation to go on with; a larger one is dropped (the run replans). */
const wholePlan: FieldReader<JsonObject | null> = (value) =>
  isParsedJsonObject(value) && JSON.stringify(value).length <= MAX_PLAN_BYTES ? value : null;

/** What the publisher takes from report.json: the rest of it is never read. */
const readRecord = object({
  // The report format this publisher reads: another version is not a report it knows.
  schemaVersion: (value, path) => {
    if (value !== 2) throw new PayloadShapeError(path, 'the report format 2');
    return value;
  },
  issue: positiveInteger,
  run_id: text,
  requester: positiveInteger,
  snapshot: text,
  startCommit: commitSha,
  status: text,
  summary: text,
  spend: object({ calls: count, inputTokens: count, outputTokens: count, usd: count }),
  tests: nullable(object({ exitCode: nullable(count) })),
  votes: object({ correctness: vote, testQuality: vote, elegance: vote, review: vote }),
  decidedBy: text,
  // Read for a stopped run's account; a finished run's commits are the bundle's, checked.
  commits: nullable(commits),
  plan: planSteps,
  estimatedPoints: nullable(count),
  budget: nullable(count),
  needsPoints: nullable(count),
  runSpend: nullable(object({ tokens: count, usd: count })),
});

/** The report's claims, and its whole plan for a continuation (null past MAX_PLAN_BYTES). */
export type RunClaims = ReturnType<typeof readRecord> & { readonly wholePlan: JsonObject | null };

/** A run that passed every check: its commits, and AUREUS's own verdict on them. */
export interface PublishableRun {
  readonly claims: RunClaims;
  readonly start: string;
  readonly head: string;
  readonly report: Report;
}

/**
 * A run that stopped because it would need more than it was given (the requester's points
 * budget, or its dollar cap): its work, checked as a finished run's is, is kept to go on with
 * and never published as done. `head` is null when it stopped before acting (nothing to keep).
 */
export interface StoppedRun {
  readonly claims: RunClaims;
  readonly stopped: 'points' | 'usd';
  readonly start: string;
  readonly head: string | null;
  /** AUREUS's own check of the kept commits, when there are any. */
  readonly report: Report | null;
  /** The run's dollar cap: the requester's `--budget $N` under the start commit's policy's. */
  readonly usdCap: number;
  /** The policy's own caps: what no approval may pass. */
  readonly policyCaps: { readonly points: number; readonly usd: number };
}

/** The statuses of a run that stopped for want of budget, and which budget it was. */
const NEEDS_MORE: Readonly<Record<string, StoppedRun['stopped']>> = {
  [BUDGET_STOP]: 'points',
  'stopped at max_usd_per_run': 'usd',
};

/** Which budget a run with this status stopped for, or undefined when it did not stop for one. */
export function budgetStopOf(status: string): StoppedRun['stopped'] | undefined {
  return Object.hasOwn(NEEDS_MORE, status) ? NEEDS_MORE[status] : undefined;
}

export interface PublishSettings {
  readonly root: string;
  readonly folder: string;
  readonly policyPath: string;
  readonly toolVersion: string;
}

/**
 * The run in the artifact, validated without a model (THREATS rows 11–13, 17): the report
 * answers this dispatch and says the run is done; the start commit is an ancestor of the
 * default branch; the bundle verifies and holds one straight line of commits from it; no
 * protected path, link or override trailer, within the patch caps; and `checkChange` under
 * the start commit's policy says pass or warn. Any failure is a refusal with its reasons.
 */
export async function publishableRun(
  settings: PublishSettings,
  dispatch: BuilderDispatch,
): Promise<PublishableRun | StoppedRun | { readonly refusals: readonly string[] }> {
  const { root } = settings;
  const claims = runClaims(settings.folder, dispatch);
  if ('refusals' in claims) return claims;
  const stopped = NEEDS_MORE[claims.status];
  if (claims.status !== 'done' && stopped === undefined)
    return { refusals: [`the run ended "${claims.status}": only a finished run is published.`] };
  const start = claims.startCommit;
  await requireHistory(root, dispatch.defaultBranch);
  const onDefault = await runGit(
    root,
    ['merge-base', '--is-ancestor', start, `refs/remotes/origin/${dispatch.defaultBranch}`],
    { okExitCodes: [0, 1, 128] },
  );
  if (onDefault.exitCode !== 0)
    return {
      refusals: [
        `the run's start commit ${start.slice(0, 12)} is not on the default branch ${dispatch.defaultBranch}.`,
      ],
    };
  // The start commit is the report's word, and the run could have rewritten it: a year-old start
  // would be judged by a year-old policy. The policy and baseline that judge it must be today's.
  const drifted = await rulesChangedSince(
    root,
    start,
    `refs/remotes/origin/${dispatch.defaultBranch}`,
    [settings.policyPath, BASELINE_PATH],
  );
  if (drifted.length > 0)
    return {
      refusals: [
        `${drifted.join(' and ')} at the run's start commit ${start.slice(0, 12)} differ from the default branch's: a run is judged by today's rules. Start it again.`,
      ],
    };
  const { policy } = await basePolicy(root, start, { policyPath: settings.policyPath, cwd: root });
  const stoppedRun = (head: string | null, report: Report | null): StoppedRun | undefined =>
    stopped === undefined
      ? undefined
      : {
          claims,
          stopped,
          start,
          head,
          report,
          usdCap: Math.min(
            dispatch.maxUsd ?? Number.POSITIVE_INFINITY,
            policy.cost_thresholds.max_usd_per_run,
          ),
          policyCaps: {
            points: policy.budgets.change.block,
            usd: policy.cost_thresholds.max_usd_per_run,
          },
        };
  // A run stopped before it acted has nothing to check or keep: its plan is what it leaves.
  if (claims.commits?.length === 0) {
    const early = stoppedRun(null, null);
    if (early !== undefined) return early;
  }
  const bundle = readArtifactFile(settings.folder, RUN_BUNDLE, MAX_BUNDLE_BYTES);
  if ('refusal' in bundle) return { refusals: [bundle.refusal] };
  const scratch = await mkdtemp(join(tmpdir(), 'aureus-publish-'));
  try {
    // git reads a private copy: nothing in the artifact folder is opened by path again.
    const copy = join(scratch, RUN_BUNDLE);
    await writeFile(copy, bundle.bytes);
    const imported = await importBundle(root, copy, dispatch.runId);
    if ('refusal' in imported) return { refusals: [imported.refusal] };
    const head = imported.head;
    const refusals = await commitRefusals(root, { start, head }, policy, settings.policyPath);
    if (refusals.length > 0) return { refusals };
    const report = await checkChange(
      root,
      { kind: 'range', base: start, head },
      {
        policyPath: settings.policyPath,
        cwd: root,
        toolVersion: settings.toolVersion,
        policyGate: {
          kind: 'approval',
          how: 'a run never changes the policy; a person does, in a pull request of their own.',
        },
      },
    );
    if (report.verdict !== 'pass' && report.verdict !== 'warn')
      return {
        refusals: [
          `aureus check says ${report.verdict} (${report.cost.total} points of ${report.budget.block}).`,
          ...report.reasons,
        ],
      };
    return stoppedRun(head, report) ?? { claims, start, head, report };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * What the run's report.json claims, read within bounds and field by field, when it answers this
 * dispatch: words to show and figures to check, never to trust.
 */
export function runClaims(
  folder: string,
  dispatch: BuilderDispatch,
): RunClaims | { readonly refusals: readonly string[] } {
  const read = readArtifactFile(folder, RUN_REPORT, MAX_REPORT_BYTES);
  if ('refusal' in read) return { refusals: [read.refusal] };
  let claims: RunClaims;
  try {
    const parsed: unknown = JSON.parse(read.bytes.toString('utf8'));
    claims = {
      ...readRecord(parsed, RUN_REPORT),
      wholePlan: wholePlan(payloadField(parsed, 'plan'), `${RUN_REPORT}.plan`),
    };
  } catch (error) {
    return {
      refusals: [
        `the run's ${RUN_REPORT} is not the builder's report: ${String(error instanceof Error ? error.message : error)}.`,
      ],
    };
  }
  const expected = {
    issue: dispatch.issue,
    run_id: dispatch.runId,
    requester: dispatch.requester,
    snapshot: dispatch.snapshot,
  };
  const mismatch = (['issue', 'run_id', 'requester', 'snapshot'] as const).filter(
    (key) => claims[key] !== expected[key],
  );
  if (mismatch.length > 0)
    return {
      refusals: [`the run's report answers another dispatch (${mismatch.join(', ')} differ).`],
    };
  return claims;
}

/** Ancestry is only provable on full history, and the default branch must be known. */
async function requireHistory(root: string, defaultBranch: string): Promise<void> {
  const shallow = (await runGit(root, ['rev-parse', '--is-shallow-repository'])).stdout
    .toString('utf8')
    .trim();
  const known = await runGit(
    root,
    ['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${defaultBranch}^{commit}`],
    {
      okExitCodes: [0, 1],
    },
  );
  if (shallow === 'true' || known.exitCode !== 0)
    throw new AureusError(
      `the publishing job needs the full history of ${defaultBranch} to check where the run starts, and the checkout is ${shallow === 'true' ? 'shallow' : `without origin/${defaultBranch}`}.`,
      'set fetch-depth: 0 on actions/checkout in the publish job.',
    );
}

/** `.aureus/baseline.json`: its findings are allowed, so an old one would allow old findings. */
const BASELINE_PATH = '.aureus/baseline.json';

/** The paths whose blob (or absence) at `start` is not what `current` has. */
async function rulesChangedSince(
  root: string,
  start: string,
  current: string,
  paths: readonly string[],
): Promise<string[]> {
  const blob = async (commit: string, path: string) => {
    const answer = await runGit(root, ['rev-parse', '-q', '--verify', `${commit}:${path}`], {
      okExitCodes: [0, 1, 128],
    });
    return answer.exitCode === 0 ? answer.stdout.toString('utf8').trim() : null;
  };
  const changed: string[] = [];
  for (const path of paths)
    if ((await blob(start, path)) !== (await blob(current, path))) changed.push(path);
  return changed;
}
