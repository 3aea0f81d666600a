import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import { basePolicy } from '../check/policy-at-commit.js';
import {
  builderRunPhases,
  STOPPED_PHASE,
  stoppedRunStateLine,
} from '../github/builder-run-comment.js';
import type { GitHubClient } from '../github/github-client.js';
import { statusOf } from '../github/request-error.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { escapeControls } from '../report/plain-text.js';
import type { ActionSettings } from './action-settings.js';
import { approvedIssue } from './approved-issue.js';
import { dailyCapRefusal } from './builder-day-caps.js';
import { type BuilderDispatch, readBuilderDispatch } from './builder-dispatch.js';
import { pullRequestBody, refusalSummary } from './builder-pull-request.js';
import { verifyDispatchTrigger } from './dispatch-trigger.js';
import { type PublishableRun, publishableRun } from './published-run.js';
import { artifactFolder, RUN_REPORT } from './run-artifact.js';
import { deleteBranch, gitRemote, keepStoppedWork, pushBranch } from './run-branch.js';
import { actionClient, eventPayload, required } from './runner-environment.js';
import { setStepOutputs } from './step-outputs.js';
import { spentBy, stoppedRunDetails } from './stopped-run-comment.js';
import { toolVersion } from './tool-version.js';
import { cancelled, tellTrackingComment } from './tracking-comment.js';

/**
 * `mode: publish`, the builder's second job: the only one with a write token, and it runs no
 * model and no code of the run. It validates the run the first job left (published-run.ts);
 * only then it pushes `aureus/issue-<n>-<run id>` and opens a draft pull request that resolves
 * the issue. A refusal pushes nothing, fails the step and says why in the tracking comment.
 */
export async function runPublishMode(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const dispatch = readBuilderDispatch(required(env, 'GITHUB_EVENT_NAME'), await eventPayload(env));
  if (settings.token === '')
    throw new AureusError(
      'mode: publish needs a token, and github-token is empty.',
      'give the publish job contents: write, pull-requests: write and issues: write, and leave github-token at its default.',
    );
  const workspace = required(env, 'GITHUB_WORKSPACE');
  const root = resolve(workspace, settings.workingDirectory);
  const client = actionClient(settings.token, env);
  const tell = (phase: string, detail: string, more = '') =>
    tellTrackingComment(client, dispatch, phase, detail, more);
  try {
    // The build job proved who asked; a job that skipped it proves it here before anything is pushed.
    await verifyDispatchTrigger(client, dispatch, async () => {
      const { policy } = await basePolicy(root, `refs/remotes/origin/${dispatch.defaultBranch}`, {
        policyPath: settings.policyPath,
        cwd: root,
      });
      return policy.integrations.app.builder_label;
    });
    const run = await publishableRun(
      {
        root,
        folder: artifactFolder(workspace, settings.outputDir),
        policyPath: settings.policyPath,
        toolVersion: toolVersion(),
      },
      dispatch,
    );
    if ('refusals' in run) {
      const folder = artifactFolder(workspace, settings.outputDir);
      // A run that left no report may have been refused by the day's caps before any model ran,
      // which the build job (a read-only token) could say only in its log: said here, where the
      // requester looks, from GitHub's list of runs rather than anything in the artifact.
      const capped = existsSync(join(folder, RUN_REPORT))
        ? undefined
        : await dayCapRefusalOf(client, dispatch, { root, settings, env });
      const refusals =
        capped === undefined
          ? run.refusals
          : [
              `the builder step refused the run before any model ran: ${capped.message}`,
              `To resolve, ${capped.hint}`,
            ];
      core.error(escapeControls(`AUREUS builder: the run is refused. ${refusals.join(' ')}`));
      await core.summary.addRaw(refusalSummary(dispatch, refusals)).write();
      setStepOutputs({ published: 'false' }, env);
      await tell('failed', `nothing was published: ${refusals.join(' ')}`);
      return ExitCode.rejected;
    }
    // The pull request's title is the approved snapshot's: the issue as it is now must still
    // be the text the requester approved and the build used, else nothing is published.
    const title = titleOf((await approvedIssue(client, dispatch)).text);
    if ('stopped' in run) {
      if (await cancelled(client, dispatch)) return refuseCancelled(env);
      const kept =
        run.head === null
          ? null
          : await keepStoppedWork(
              root,
              gitRemote(env, dispatch.repository, settings.token),
              dispatch,
              run.head,
            );
      const details = stoppedRunDetails(run, kept);
      const state = stoppedRunStateLine({
        start: run.start,
        head: run.head,
        points: run.report?.cost.total ?? 0,
        usd: spentBy(run).usd,
        tokens: spentBy(run).tokens,
        plan: run.claims.wholePlan,
      });
      const shown = details.split(settings.token).join('[REDACTED]');
      await tell(STOPPED_PHASE, '', `${shown}\n${state}`);
      await core.summary
        .addRaw(`## AUREUS builder: run \`${dispatch.runId}\` stopped\n\n${details}\n`)
        .write();
      setStepOutputs(
        { published: 'false', stopped: 'true', ...(kept === null ? {} : { ref: kept }) },
        env,
      );
      return ExitCode.pass;
    }
    // The App marks a run cancelled before it cancels its workflow run (/aureus cancel): a
    // cancellation that reached the record but not this job still stops it, before and after
    // the push, and a branch whose pull request cannot be opened does not stay behind.
    if (await cancelled(client, dispatch)) return refuseCancelled(env);
    const remote = gitRemote(env, dispatch.repository, settings.token);
    const branch = await pushBranch(root, remote, dispatch, run.head);
    let url: string;
    try {
      if (await cancelled(client, dispatch)) throw CANCELLED;
      url = await openDraftPullRequest(client, dispatch, { branch, title }, run, settings.token);
    } catch (error) {
      await deleteBranch(root, remote, branch, run.head);
      if (error === CANCELLED) return refuseCancelled(env);
      throw error;
    }
    // Published: a comment that cannot be edited (another App's, a missing permission) must not
    // turn a pushed branch and an open pull request into a failed step.
    await tell('finished', `draft pull request: ${url}`, builderRunPhases(5)).catch(
      (error: unknown) =>
        core.warning(
          escapeControls(
            `AUREUS builder: published, but the tracking comment could not be updated (${error instanceof Error ? error.message : String(error)}); grant issues: write to this job.`,
          ),
        ),
    );
    await core.summary
      .addRaw(
        `## AUREUS builder\n\nRun \`${dispatch.runId}\` published as a draft pull request: ${url}\n`,
      )
      .write();
    setStepOutputs({ published: 'true', branch, 'pull-request': url }, env);
    return ExitCode.pass;
  } catch (error) {
    await tell('failed', 'the publishing step could not finish; its workflow log says why.').catch(
      () => undefined,
    );
    throw error;
  }
}

/** Thrown between the push and the pull request when the run was cancelled meanwhile. */
const CANCELLED = new Error('cancelled');

async function refuseCancelled(env: NodeJS.ProcessEnv): Promise<number> {
  core.error('AUREUS builder: the run was cancelled (/aureus cancel); nothing is published.');
  await core.summary
    .addRaw(
      '## AUREUS builder\n\nThe run was cancelled with `/aureus cancel`: nothing was published.\n',
    )
    .write();
  setStepOutputs({ published: 'false' }, env);
  return ExitCode.rejected;
}

/** The issue's title as the snapshot holds it (its first line, `# title`), sanitised. */
function titleOf(snapshotText: string): string {
  const [first = ''] = snapshotText.split('\n');
  return first.replace(/^# /, '').trim();
}

async function openDraftPullRequest(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  { branch, title }: { readonly branch: string; readonly title: string },
  run: PublishableRun,
  token: string,
): Promise<string> {
  try {
    const { data: pull } = await client.rest.pulls.create({
      ...dispatch.repository,
      title: `AUREUS builder: ${title}`.slice(0, 250),
      head: branch,
      base: dispatch.defaultBranch,
      draft: true,
      // The body quotes what the model wrote: the token it never saw is removed all the same.
      body: pullRequestBody(dispatch, run).split(token).join('[REDACTED]'),
    });
    return pull.html_url;
  } catch (error) {
    if (statusOf(error) === 403)
      throw new AureusError(
        `GitHub refused to open the draft pull request for ${branch} (403).`,
        "grant the publish job pull-requests: write, and let GitHub Actions create pull requests (the repository's Settings, Actions, General, Workflow permissions).",
      );
    // 422: the branch has its pull request already (a re-run of the job): that one is the answer.
    if (statusOf(error) !== 422) throw error;
    const { data: open } = await client.rest.pulls.list({
      ...dispatch.repository,
      state: 'open',
      head: `${dispatch.repository.owner}:${branch}`,
      base: dispatch.defaultBranch,
    });
    const [existing] = open;
    if (existing === undefined) throw error;
    return existing.html_url;
  }
}

/**
 * The day's caps asked again of a run that left no report (builder-day-caps.ts), under the
 * default branch's policy as the build job read it. A job without `actions: read`, or a policy
 * that cannot be read, says nothing more than the missing report: a warning names the grant.
 */
async function dayCapRefusalOf(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  where: {
    readonly root: string;
    readonly settings: ActionSettings;
    readonly env: NodeJS.ProcessEnv;
  },
): Promise<AureusError | undefined> {
  try {
    const { policy } = await basePolicy(
      where.root,
      `refs/remotes/origin/${dispatch.defaultBranch}`,
      {
        policyPath: where.settings.policyPath,
        cwd: where.root,
      },
    );
    return await dailyCapRefusal(client, dispatch, policy, {
      id: Number(where.env.GITHUB_RUN_ID ?? '0'),
      now: Date.now(),
    });
  } catch (error) {
    if (!(error instanceof AureusError)) throw error;
    core.warning(
      escapeControls(
        `AUREUS builder: the run left no report, and whether the day's caps refused it is unknown: ${error.message} To resolve, ${error.hint}`,
      ),
    );
    return undefined;
  }
}
