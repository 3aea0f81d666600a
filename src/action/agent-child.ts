import * as core from '@actions/core';
import { implement, PLANNED, runTextScrubber } from '../agent/implement-run.js';
import { payloadField as field } from '../github/payload-field.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { readBuilderDispatch } from './builder-dispatch.js';
import { restorePlannedRun, writePlannedRun } from './planned-run.js';
import { budgetStopOf } from './published-run.js';
import { writeRunArtifact } from './run-artifact.js';
import { toolVersion } from './tool-version.js';

/** What the build step hands the agent on its standard input: never through the environment. */
export interface AgentJob {
  readonly root: string;
  readonly workspace: string;
  readonly folder: string;
  /** The approved issue's visible text, as the prepare step checked it. */
  readonly task: string;
  /** The workflow_dispatch payload, read again here with the same checks. */
  readonly event: unknown;
  /** The build step's secret-named values, which the agent's environment does not hold. */
  readonly secrets: readonly string[];
  /** How far the run goes: the whole run, to its plan only, or on from a plan (`planDir`). */
  readonly stage: BuilderStage;
  /** For the `act` stage: where the plan job's artifact was downloaded. */
  readonly planDir: string;
}

/** The builder step's `stage` input. */
export const BUILDER_STAGES = ['all', 'plan', 'act'] as const;
export type BuilderStage = (typeof BUILDER_STAGES)[number];

export function isBuilderStage(value: string): value is BuilderStage {
  return BUILDER_STAGES.some((stage) => stage === value);
}

/**
 * The builder agent's own process (`dist/builder.mjs agent`), started by the build step with an
 * allow-listed environment: PATH, HOME, locale, TMPDIR and the model's key, nothing of the
 * runner's. It runs the builder on the task as `aureus implement --yes` does and leaves the run
 * in the output folder, the only way anything of it goes back (exit 0 done, 1 not done).
 */
export async function runAgentProcess(env: NodeJS.ProcessEnv): Promise<number> {
  const job = agentJob(await standardInput());
  const dispatch = readBuilderDispatch('workflow_dispatch', job.event);
  // The Act job goes on from its plan job's run; a continuation in one job, from the stop the
  // prepare step handed on (planDir is then the output folder).
  const resume =
    job.stage === 'act' || (job.stage === 'all' && dispatch.resumeFrom !== undefined)
      ? await restorePlannedRun(job.root, job.planDir, dispatch, job.task)
      : undefined;
  const report = await implement({
    root: job.root,
    task: job.task,
    resume,
    stopAfterPlan: job.stage === 'plan',
    env,
    // Tier 2 (the policy's allowed commands) as with --yes: the tier gate still holds the run
    // to permissions.max_tier, and nobody is there to ask.
    yes: true,
    toolVersion: toolVersion(),
    cwd: job.root,
    maxUsd: dispatch.maxUsd,
    maxPoints: dispatch.maxPoints,
    secrets: job.secrets,
  });
  const scrub = await runTextScrubber(job.root, job.secrets);
  await writeRunArtifact(job, report, dispatch, scrub);
  // A stop for want of budget leaves its state too: a continuation goes on from it.
  if (report.status === PLANNED || budgetStopOf(report.status) !== undefined)
    await writePlannedRun(job, report, dispatch, scrub);
  core.info(`The builder's run ended "${report.status}".`);
  return report.status === (job.stage === 'plan' ? PLANNED : 'done')
    ? ExitCode.pass
    : ExitCode.rejected;
}

async function standardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

function agentJob(text: string): AgentJob {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const stringAt = (key: string): string => {
    const value = field(parsed, key);
    if (typeof value !== 'string')
      throw new AureusError(
        'the builder agent was started without its job on standard input.',
        'run the builder through its step, uses: <owner>/aureus/builder@<commit>, which starts the agent.',
      );
    return value;
  };
  return {
    root: stringAt('root'),
    workspace: stringAt('workspace'),
    folder: stringAt('folder'),
    task: stringAt('task'),
    event: field(parsed, 'event'),
    secrets: stringsAt(field(parsed, 'secrets')),
    stage: stageAt(field(parsed, 'stage')),
    planDir: stringAt('planDir'),
  };
}

function stageAt(value: unknown): BuilderStage {
  return typeof value === 'string' && isBuilderStage(value) ? value : 'all';
}

function stringsAt(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
