import { resolve } from 'node:path';
import * as core from '@actions/core';
import { PLANNED, planPoints } from '../agent/implement-run.js';
import { basePolicy } from '../check/policy-at-commit.js';
import { runGit } from '../git/git-runner.js';
import { builderRunPhases, readBuilderRunComment } from '../github/builder-run-comment.js';
import { payloadField } from '../github/payload-field.js';
import { AureusError, ExitCode } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { escapeControls } from '../report/plain-text.js';
import type { ActionSettings } from './action-settings.js';
import { type BuilderDispatch, readBuilderDispatch } from './builder-dispatch.js';
import { planComment, type ShownPlan } from './plan-comment.js';
import { type RunClaims, runClaims } from './published-run.js';
import { artifactFolder } from './run-artifact.js';
import { actionClient, eventPayload, required } from './runner-environment.js';
import { cancelled, findTrackingComment, tellTrackingComment } from './tracking-comment.js';

/**
 * `mode: post-plan`, the builder's job between its plan job and its Act job: it runs no model
 * and no code of the run, holds `issues: write`, and posts the plan the plan job left (its
 * report.json) on the issue before anything is acted on, with AUREUS's own price of its
 * estimate under the checkout's policy and the run's caps, then marks Gather and Plan done in
 * the tracking comment. The report is the model's word: read within bounds, shown escaped, and
 * refused when it does not answer this dispatch or its plan is not one the run could accept.
 */
export async function runPostPlanMode(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const dispatch = readBuilderDispatch(required(env, 'GITHUB_EVENT_NAME'), await eventPayload(env));
  if (settings.token === '')
    throw new AureusError(
      'mode: post-plan needs a token, and github-token is empty.',
      'give the job that posts the plan issues: write and contents: read, and leave github-token at its default.',
    );
  const workspace = required(env, 'GITHUB_WORKSPACE');
  const root = resolve(workspace, settings.workingDirectory);
  const client = actionClient(settings.token, env);
  // A cancelled run is neither shown nor marked running again (/aureus cancel marks it first).
  const tracking = await findTrackingComment(client, dispatch);
  if (await cancelled(client, dispatch)) {
    core.error('AUREUS builder: the run was cancelled (/aureus cancel); its plan is not posted.');
    return ExitCode.rejected;
  }
  const head = (await runGit(root, ['rev-parse', 'HEAD'])).stdout.toString('utf8').trim();
  const { policy } = await basePolicy(root, head, { policyPath: settings.policyPath, cwd: root });
  const checked = shownPlan(runClaims(artifactFolder(workspace, settings.outputDir), dispatch), {
    head,
    policy,
    dispatch,
  });
  if ('refusal' in checked) {
    core.error(escapeControls(`AUREUS builder: the plan is not posted: ${checked.refusal}`));
    await tellTrackingComment(
      client,
      dispatch,
      'failed',
      `the plan was not posted: ${checked.refusal}`,
    );
    return ExitCode.rejected;
  }
  const body = planComment(checked);
  const { data: posted } = await client.rest.issues.createComment({
    ...dispatch.repository,
    issue_number: dispatch.issue,
    // The plan quotes what the model wrote: the token it never saw is removed all the same.
    body: body.split(settings.token).join('[REDACTED]'),
  });
  // A cancel while the plan was posted: the run is not marked running over it (the edit below
  // reads the comment again too, and publish reads the /aureus cancel command itself).
  if (await cancelled(client, dispatch)) {
    core.error('AUREUS builder: the run was cancelled (/aureus cancel) while its plan was posted.');
    return ExitCode.rejected;
  }
  // The workflow run the dispatch named stays last: the App cancels the run by it.
  const workflowRun = readBuilderRunComment(tracking?.body ?? '')?.workflowRunId;
  await tellTrackingComment(
    client,
    dispatch,
    'running',
    `${builderRunPhases(2)}${workflowRun === undefined ? '' : `, workflow run ${workflowRun}`}`,
  );
  await core.summary
    .addRaw(
      `## AUREUS builder: the plan of run \`${dispatch.runId}\`\n\nPosted on issue #${dispatch.issue}: ${posted.html_url}\n`,
    )
    .write();
  return ExitCode.pass;
}

/**
 * The plan to show when the report is a plan of this dispatch that the run could accept: at
 * this checkout's commit, with an estimate AUREUS prices (again, under the checkout's policy)
 * within the run's budget. Otherwise why not.
 */
function shownPlan(
  claims: RunClaims | { readonly refusals: readonly string[] },
  at: { readonly head: string; readonly policy: Policy; readonly dispatch: BuilderDispatch },
): ShownPlan | { readonly refusal: string } {
  const { head, policy, dispatch } = at;
  if ('refusals' in claims) return { refusal: claims.refusals.join(' ') };
  if (claims.status !== PLANNED)
    return { refusal: `the plan job's run ended "${claims.status}", not at an accepted plan.` };
  if (claims.startCommit !== head)
    return {
      refusal: `the plan starts at ${claims.startCommit.slice(0, 12)}, and this checkout is at ${head.slice(0, 12)}.`,
    };
  const points = planPoints(claims.wholePlan, policy);
  const pointsBudget = Math.min(
    dispatch.maxPoints ?? Number.POSITIVE_INFINITY,
    policy.budgets.change.block,
  );
  if (points === null)
    return {
      refusal:
        'the plan holds no estimate AUREUS can price (files, lines, abstractions, dependencies).',
    };
  if (points > pointsBudget)
    return {
      refusal: `the plan's estimate costs ${points} points, over the run's budget of ${pointsBudget}.`,
    };
  return {
    runId: dispatch.runId,
    steps: claims.plan,
    files: filesOf(claims.wholePlan),
    points,
    pointsBudget,
    spent: claims.runSpend ?? {
      usd: claims.spend.usd,
      tokens: claims.spend.inputTokens + claims.spend.outputTokens,
    },
    usdCap: Math.min(
      dispatch.maxUsd ?? Number.POSITIVE_INFINITY,
      policy.cost_thresholds.max_usd_per_run,
    ),
    ...(dispatch.resumeFrom === undefined ? {} : { continuedFrom: dispatch.resumeFrom }),
  };
}

/** The files the plan names, when it names them as text. */
function filesOf(plan: unknown): string[] {
  const files = payloadField(plan, 'files');
  return Array.isArray(files)
    ? files.filter((file): file is string => typeof file === 'string')
    : [];
}
