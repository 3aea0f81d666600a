import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import { PLANNED } from '../agent/implement-run.js';
import { basePolicy } from '../check/policy-at-commit.js';
import { runGit } from '../git/git-runner.js';
import { payloadField as field } from '../github/payload-field.js';
import { apiKeyVariable } from '../llm/model-from-policy.js';
import { writeOutputFile } from '../memory/output-file.js';
import { AureusError, ExitCode } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { escapeMarkdown } from '../report/markdown-escape.js';
import { type BuilderStage, isBuilderStage } from './agent-child.js';
import {
  agentEnvironment,
  refuseRunnerCredentials,
  runAgent,
  stepSecrets,
} from './agent-process.js';
import { approvedIssue } from './approved-issue.js';
import { refusePersistedCredentials } from './builder-credentials.js';
import { refuseOverDailyCaps } from './builder-day-caps.js';
import { type BuilderDispatch, readBuilderDispatch } from './builder-dispatch.js';
import { refuseUsedTrigger, verifyDispatchTrigger } from './dispatch-trigger.js';
import { artifactFolder, outputFolder, RUN_REPORT, readArtifactFile } from './run-artifact.js';
import { gitRemote } from './run-branch.js';
import { actionClient, eventPayload, required } from './runner-environment.js';
import { setStepOutputs } from './step-outputs.js';
import { handOnStoppedRun } from './stopped-run-handoff.js';

/**
 * The builder step's first script step (`prepare`), the only one that holds a GitHub token (read
 * only): checks that the issue is still the text the requester approved and leaves that text in
 * the runner's temporary folder for the next step. It runs nothing of the repository.
 */
export async function runPrepareStep(env: NodeJS.ProcessEnv): Promise<number> {
  refuseRerun(env);
  const dispatch = await dispatchOf(env);
  const token = env.AUREUS_GITHUB_TOKEN ?? '';
  if (token === '')
    throw new AureusError(
      'the builder step reads the issue to check it is the approved one, and github-token is empty.',
      'give the build job issues: read and contents: read, and leave github-token at its default.',
    );
  const client = actionClient(token, env);
  const root = resolve(required(env, 'GITHUB_WORKSPACE'), env.AUREUS_WORKING_DIRECTORY ?? '.');
  const stage = stageOf(env);
  // Who asked is proven, and that their trigger starts no second run, before the issue is read
  // for the model (dispatch-trigger.ts). The second only where the run starts (the Act job goes
  // on from its own workflow run's plan, and holds no pull-requests: read), and not in the
  // publish job: a re-run of it finds the branch it pushed, and reports it again.
  try {
    await verifyDispatchTrigger(
      client,
      dispatch,
      async () => (await policyAtHead(root)).integrations.app.builder_label,
    );
    if (stage !== 'act') {
      const workflowRun = Number(env.GITHUB_RUN_ID ?? '0');
      await refuseUsedTrigger(client, dispatch, workflowRun);
      // The day's caps again, where the run starts (builder-day-caps.ts): the Act job goes on
      // from this workflow run's plan, which was counted here.
      await refuseOverDailyCaps(client, dispatch, await policyAtHead(root), {
        id: workflowRun,
        now: Date.now(),
      });
    }
  } catch (error) {
    if (error instanceof AureusError) await refusalSummary(dispatch, error);
    throw error;
  }
  const snapshot = await approvedIssue(client, dispatch);
  // A continuation (/aureus approve-budget) goes on from the stopped workflow run's artifact,
  // checked here while the step holds a token, and handed on as the run's plan: the plan job
  // plans nothing again. The Act job goes on from the plan job's artifact as for any run.
  if (dispatch.resumeFrom !== undefined && stage !== 'act') {
    const workspace = required(env, 'GITHUB_WORKSPACE');
    const stop = await handOnStoppedRun(client, dispatch, {
      root,
      resumeDir: artifactFolder(workspace, resumeDirOf(env)),
      folder: await outputFolder(workspace, env.AUREUS_OUTPUT_DIR ?? 'aureus-run'),
      workspace,
      currentWorkflowRun: Number(env.GITHUB_RUN_ID ?? '0'),
      remote: gitRemote(env, dispatch.repository, token),
    });
    core.info(
      `Run ${dispatch.runId} goes on from workflow run ${dispatch.resumeFrom}, where it ${stop.status}${stop.head === null ? ' before acting' : `, at its kept commit ${stop.head.slice(0, 12)}`}.`,
    );
  }
  const temp = required(env, 'RUNNER_TEMP');
  await writeOutputFile(
    taskFile(temp, dispatch),
    JSON.stringify({
      issue: dispatch.issue,
      snapshot: dispatch.snapshot,
      task: snapshot.text,
    }),
    { setting: 'RUNNER_TEMP', within: { folder: temp, name: 'the runner temporary folder' } },
  );
  core.info(
    `Issue #${dispatch.issue} matches the approved snapshot ${dispatch.snapshot.slice(0, 12)}.`,
  );
  return ExitCode.pass;
}

/**
 * The second script step (`build`): no token in its environment (the runner gives
 * ACTIONS_RUNTIME_TOKEN and the id-token variables to JavaScript and container actions only).
 * It starts the agent with an allow-listed environment, then reads the run back from the output
 * folder for the step's outputs and summary (exit 0 done, 1 not done, 2 could not run).
 */
export async function runBuildStep(env: NodeJS.ProcessEnv): Promise<number> {
  refuseRerun(env);
  refuseRunnerCredentials(env);
  const dispatch = await dispatchOf(env);
  const task = await approvedTask(required(env, 'RUNNER_TEMP'), dispatch);
  const workspace = required(env, 'GITHUB_WORKSPACE');
  const stage = stageOf(env);
  const root = resolve(workspace, env.AUREUS_WORKING_DIRECTORY ?? '.');
  await refusePersistedCredentials(root);
  const folder = await outputFolder(workspace, env.AUREUS_OUTPUT_DIR ?? 'aureus-run');
  // A continuation's stop, handed on by the prepare step, is the plan the run goes on from: the
  // plan stage has nothing left to do, and the whole run in one job acts on from it.
  const continued = dispatch.resumeFrom !== undefined;
  const planDir =
    stage === 'act' ? artifactFolder(workspace, planDirOf(env)) : continued ? folder : '';
  if (stage === 'plan' && continued) return stepResult(dispatch, folder, stage, ExitCode.pass, env);
  const keys = await modelKeyVariables(root);
  // The step's own variables stay readable in /proc to the run's commands: the agent learns the
  // values of those it is not given (on its standard input, never its environment), whatever
  // their names, to scrub and refuse them.
  const secrets = stepSecrets(env, keys);
  const job = {
    root,
    workspace,
    folder,
    task,
    event: await eventPayload(env),
    secrets,
    stage,
    planDir,
  };
  core.info(`The builder starts on issue #${dispatch.issue}, run ${dispatch.runId}.`);
  const exitCode = await runAgent(job, agentEnvironment(env, keys), env);
  if (exitCode === ExitCode.error) return ExitCode.error;
  return stepResult(dispatch, folder, stage, exitCode, env);
}

/** The step's outputs and summary from the run's report.json, and its exit code. */
async function stepResult(
  dispatch: BuilderDispatch,
  folder: string,
  stage: BuilderStage,
  exitCode: number,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const run = runOutcome(folder);
  setStepOutputs(
    { status: run.status, branch: run.branch, 'output-dir': folder, verdict: run.verdict },
    env,
  );
  await core.summary
    .addRaw(
      [
        `## AUREUS builder: run \`${dispatch.runId}\` on issue #${dispatch.issue}`,
        '',
        `**Status**: ${escapeMarkdown(run.status)} (verdict ${escapeMarkdown(run.verdict)}), on \`${escapeMarkdown(run.branch)}\`.`,
        '',
        `The run's files are in the output folder for the publishing job (run.bundle, report.json, trajectory.jsonl).`,
        '',
      ].join('\n'),
    )
    .write();
  if (exitCode === ExitCode.pass && run.status === (stage === 'plan' ? PLANNED : 'done'))
    return ExitCode.pass;
  core.error(`AUREUS builder: the run ended "${run.status}"; nothing will be published.`);
  return ExitCode.rejected;
}

/** A dispatch refused before the model: said in the job summary too, where people look first. */
async function refusalSummary(dispatch: BuilderDispatch, error: AureusError): Promise<void> {
  await core.summary
    .addRaw(
      [
        `## AUREUS builder: run \`${dispatch.runId}\` on issue #${dispatch.issue} refused`,
        '',
        escapeMarkdown(error.message),
        '',
        `To resolve, ${escapeMarkdown(error.hint)}`,
        '',
      ].join('\n'),
    )
    .write();
}

async function dispatchOf(env: NodeJS.ProcessEnv): Promise<BuilderDispatch> {
  return readBuilderDispatch(required(env, 'GITHUB_EVENT_NAME'), await eventPayload(env));
}

/**
 * Every stage of this step runs the model, and a daily cap counts workflow runs, not their
 * attempts: "Re-run jobs" would spend a second run's money outside every cap. Only a run's
 * first attempt builds; the publish job, which runs no model, may be re-run.
 */
function refuseRerun(env: NodeJS.ProcessEnv): void {
  const attempt = env.GITHUB_RUN_ATTEMPT ?? '';
  if (attempt === '1') return;
  throw new AureusError(
    attempt === ''
      ? "the builder step runs a model only on a workflow run's first attempt, and GITHUB_RUN_ATTEMPT is not set."
      : `this is attempt ${attempt} of the workflow run: the builder step runs a model only on a run's first attempt, since the daily caps count runs, not attempts.`,
    'start a new run with /aureus implement (or the builder label) on the issue instead of re-running the job; a publish job may be re-run on its own.',
  );
}

/** The builder step's `stage` input: the whole run, to the plan only, or on from a plan. */
function stageOf(env: NodeJS.ProcessEnv): BuilderStage {
  const stage = env.AUREUS_STAGE || 'all';
  if (!isBuilderStage(stage))
    throw new AureusError(
      `the builder step's stage is ${JSON.stringify(stage)}, not all, plan or act.`,
      'set stage: plan in the plan job and stage: act in the job after it, or leave it out for one job.',
    );
  return stage;
}

function planDirOf(env: NodeJS.ProcessEnv): string {
  const given = env.AUREUS_PLAN_DIR ?? '';
  if (given === '')
    throw new AureusError(
      "the builder step's stage is act, and plan-dir is empty: the Act job goes on from the plan job's run.",
      "download the plan job's artifact with actions/download-artifact and give its path as plan-dir.",
    );
  return given;
}

function resumeDirOf(env: NodeJS.ProcessEnv): string {
  const given = env.AUREUS_RESUME_DIR ?? '';
  if (given === '')
    throw new AureusError(
      "the dispatch continues a stopped run (resume_from), and resume-dir is empty: the run goes on from the stopped workflow run's artifact.",
      "in the plan job, download the stopped run's artifacts with actions/download-artifact (run-id set to the resume_from input, github-token, actions: read) and give their path as resume-dir.",
    );
  return given;
}

function taskFile(temp: string, dispatch: BuilderDispatch): string {
  return join(temp, `aureus-builder-${dispatch.runId}.json`);
}

/** The issue text the prepare step checked for this dispatch, or a refusal naming the step. */
async function approvedTask(temp: string, dispatch: BuilderDispatch): Promise<string> {
  const parsed: unknown = await readFile(taskFile(temp, dispatch), 'utf8')
    .then((text) => JSON.parse(text))
    .catch(() => undefined);
  const task = field(parsed, 'task');
  if (
    typeof task !== 'string' ||
    field(parsed, 'issue') !== dispatch.issue ||
    field(parsed, 'snapshot') !== dispatch.snapshot
  )
    throw new AureusError(
      `the approved text of issue #${dispatch.issue} for run ${dispatch.runId} is not in RUNNER_TEMP: the issue was not checked.`,
      'run the builder through its step, uses: <owner>/aureus/builder@<commit>, whose first step checks the issue.',
    );
  return task;
}

/** The variables the policy's providers read their keys from: the agent's only secrets. */
async function modelKeyVariables(root: string): Promise<string[]> {
  const { model_provider: provider } = await policyAtHead(root);
  if (provider.provider === 'none') return [];
  return [
    apiKeyVariable(provider.provider, provider.api_key_env),
    ...provider.fallback.map((each) => apiKeyVariable(each.provider, each.api_key_env ?? '')),
  ];
}

/** The policy of the checkout's commit: the default branch the run was dispatched on. */
async function policyAtHead(root: string): Promise<Policy> {
  const head = (await runGit(root, ['rev-parse', 'HEAD'])).stdout.toString('utf8').trim();
  return (await basePolicy(root, head, { cwd: root })).policy;
}

/** What the step says of the run, read from report.json as the agent left it: text only. */
function runOutcome(folder: string): { status: string; branch: string; verdict: string } {
  const read = readArtifactFile(folder, RUN_REPORT, 16 * 1024 * 1024);
  let record: unknown;
  try {
    record = 'bytes' in read ? JSON.parse(read.bytes.toString('utf8')) : undefined;
  } catch {
    record = undefined;
  }
  const text = (key: string, otherwise: string): string => {
    const value = field(record, key);
    return typeof value === 'string' ? value : otherwise;
  };
  return {
    status: text('status', 'no report'),
    branch: text('branch', ''),
    verdict: text('verdict', 'incomplete'),
  };
}
