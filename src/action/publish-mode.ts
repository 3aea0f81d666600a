import { resolve } from 'node:path';
import * as core from '@actions/core';
import { runGit } from '../git/git-runner.js';
import { builderRunComment, builderRunMarker } from '../github/builder-run-comment.js';
import type { GitHubClient } from '../github/github-client.js';
import { statusOf } from '../github/request-error.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { escapeControls } from '../report/plain-text.js';
import type { ActionSettings } from './action-settings.js';
import { type BuilderDispatch, readBuilderDispatch } from './builder-dispatch.js';
import { pullRequestBody, refusalSummary } from './builder-pull-request.js';
import { type PublishableRun, publishableRun } from './published-run.js';
import { artifactFolder } from './run-artifact.js';
import { actionClient, eventPayload, required } from './runner-environment.js';
import { setStepOutputs } from './step-outputs.js';
import { toolVersion } from './tool-version.js';

/** A push to GitHub that takes longer than this has failed; the step says so. */
const PUSH_TIMEOUT_MS = 10 * 60 * 1000;

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
  const tell = (phase: string, detail: string) => trackingComment(client, dispatch, phase, detail);
  try {
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
      core.error(escapeControls(`AUREUS builder: the run is refused. ${run.refusals.join(' ')}`));
      await core.summary.addRaw(refusalSummary(dispatch, run.refusals)).write();
      setStepOutputs({ published: 'false' }, env);
      await tell('failed', `nothing was published: ${run.refusals.join(' ')}`);
      return ExitCode.rejected;
    }
    const branch = await pushBranch(root, env, dispatch, run.head, settings.token);
    const url = await openDraftPullRequest(client, dispatch, branch, run, settings.token);
    // Published: a comment that cannot be edited (another App's, a missing permission) must not
    // turn a pushed branch and an open pull request into a failed step.
    await tell('finished', `draft pull request: ${url}`).catch((error: unknown) =>
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

/**
 * Pushes the validated commit to a new branch, never forced: a branch that holds other commits
 * is a failure, not an overwrite, and one that holds this very commit (a re-run of the job) is
 * left as it is. The token goes in an `http.<server>.extraheader` given in the environment of
 * each git call that talks to GitHub (never `.git/config`, never the command line).
 */
async function pushBranch(
  root: string,
  env: NodeJS.ProcessEnv,
  dispatch: BuilderDispatch,
  head: string,
  token: string,
): Promise<string> {
  const branch = `aureus/issue-${dispatch.issue}-${dispatch.runId}`;
  const server = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '');
  const remote = `${server}/${dispatch.repository.owner}/${dispatch.repository.repo}.git`;
  const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
  const options = {
    timeoutMs: PUSH_TIMEOUT_MS,
    env: {
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `http.${server}/.extraheader`,
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
    },
  };
  const listed = await runGit(root, ['ls-remote', remote, `refs/heads/${branch}`], options);
  const there = listed.stdout.toString('utf8').split('\t')[0]?.trim() ?? '';
  if (there === head) return branch;
  if (there !== '')
    throw new AureusError(
      `the branch ${branch} exists already, with other commits than this run's.`,
      'look at that branch; start a new run with /aureus implement to publish another.',
    );
  await runGit(
    root,
    [
      '-c',
      'core.hooksPath=/dev/null',
      'push',
      '--quiet',
      '--no-verify',
      remote,
      `${head}:refs/heads/${branch}`,
    ],
    options,
  );
  return branch;
}

async function openDraftPullRequest(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  branch: string,
  run: PublishableRun,
  token: string,
): Promise<string> {
  const { data: issue } = await client.rest.issues.get({
    ...dispatch.repository,
    issue_number: dispatch.issue,
  });
  try {
    const { data: pull } = await client.rest.pulls.create({
      ...dispatch.repository,
      title: `AUREUS builder: ${issue.title}`.slice(0, 250),
      head: branch,
      base: dispatch.defaultBranch,
      draft: true,
      // The body quotes what the model wrote: the token it never saw is removed all the same.
      body: pullRequestBody(dispatch, run).split(token).join('[REDACTED]'),
    });
    return pull.html_url;
  } catch (error) {
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
 * Edits the run's tracking comment (the App's, found by its marker among the issue's comments
 * by bots), or posts one when there is none to edit.
 */
async function trackingComment(
  client: GitHubClient,
  dispatch: BuilderDispatch,
  phase: string,
  detail: string,
): Promise<void> {
  const where = { ...dispatch.repository, issue_number: dispatch.issue };
  const marker = builderRunMarker(dispatch.runId);
  const comments = await client.paginate(client.rest.issues.listComments, {
    ...where,
    per_page: 100,
  });
  const found = comments.find(
    (comment) => comment.user?.type === 'Bot' && (comment.body ?? '').startsWith(marker),
  );
  const body = builderRunComment(dispatch.runId, phase, detail.slice(0, 4000));
  if (found === undefined) await client.rest.issues.createComment({ ...where, body });
  else
    await client.rest.issues.updateComment({ ...dispatch.repository, comment_id: found.id, body });
}
