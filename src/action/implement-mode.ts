import { resolve } from 'node:path';
import * as core from '@actions/core';
import { type ImplementReport, implement, runTextScrubber } from '../agent/implement-run.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { escapeMarkdown } from '../report/markdown-escape.js';
import type { ActionSettings } from './action-settings.js';
import { approvedIssue } from './approved-issue.js';
import { dropGitHubCredentials, refusePersistedCredentials } from './builder-credentials.js';
import { type BuilderDispatch, readBuilderDispatch } from './builder-dispatch.js';
import { outputFolder, writeRunArtifact } from './run-artifact.js';
import { actionClient, eventPayload, required } from './runner-environment.js';
import { setStepOutputs } from './step-outputs.js';
import { toolVersion } from './tool-version.js';

/**
 * `mode: implement`, the builder's first job (contents and issues read only): checks that the
 * issue is still the text the requester approved, takes every GitHub credential out of the
 * process, runs the builder on that text, and leaves the run in `output-dir` for the publishing
 * job. Nothing here can write to GitHub; the run's status decides the exit code (0 done).
 */
export async function runImplementMode(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const dispatch = readBuilderDispatch(required(env, 'GITHUB_EVENT_NAME'), await eventPayload(env));
  if (settings.token === '')
    throw new AureusError(
      'mode: implement reads the issue to check it is the approved one, and github-token is empty.',
      'give the build job issues: read and contents: read, and leave github-token at its default.',
    );
  const workspace = required(env, 'GITHUB_WORKSPACE');
  const root = resolve(workspace, settings.workingDirectory);
  const snapshot = await approvedIssue(actionClient(settings.token, env), dispatch);
  await refusePersistedCredentials(root);
  const folder = await outputFolder(workspace, settings.outputDir);
  // From here on the environment holds no GitHub credential: the agent's tools and the project's
  // commands inherit it, and the token's value is scrubbed if it turns up anyway.
  const secrets = dropGitHubCredentials(process.env, settings.token);
  if (env !== process.env) dropGitHubCredentials(env, settings.token);
  core.info(
    `Issue #${dispatch.issue} matches the approved snapshot ${dispatch.snapshot.slice(0, 12)}; the builder starts.`,
  );
  const report = await implement({
    root,
    task: snapshot.text,
    env: process.env,
    // Tier 2 (the policy's allowed commands) as with --yes: the tier gate still holds the run
    // to permissions.max_tier, and nobody is there to ask.
    yes: true,
    toolVersion: toolVersion(),
    cwd: root,
    secrets,
    maxUsd: dispatch.maxUsd,
  });
  const scrub = await runTextScrubber(root, secrets);
  await writeRunArtifact({ root, folder, workspace }, report, dispatch, scrub);
  setStepOutputs(
    {
      status: report.status,
      branch: report.branch,
      'output-dir': folder,
      verdict: report.verdict ?? 'incomplete',
    },
    env,
  );
  await core.summary.addRaw(runSummary(report, dispatch)).write();
  if (report.status === 'done') return ExitCode.pass;
  core.error(`AUREUS builder: the run ended "${report.status}"; nothing will be published.`);
  return ExitCode.rejected;
}

function runSummary(report: ImplementReport, dispatch: BuilderDispatch): string {
  const files = report.files.slice(0, 50).map((file) => `- ${escapeMarkdown(file)}`);
  return [
    `## AUREUS builder: run \`${dispatch.runId}\` on issue #${dispatch.issue}`,
    '',
    `**Status**: ${escapeMarkdown(report.status)}. **Cost**: ${report.points ?? '?'} points of ${report.budget} (verdict ${report.verdict ?? 'none'}).`,
    `**Model**: ${report.spend.calls} calls, ${report.spend.inputTokens} input and ${report.spend.outputTokens} output tokens, $${report.spend.usd.toFixed(4)}.`,
    '',
    `${report.commits.length} commit(s) on \`${escapeMarkdown(report.branch)}\`, ${report.files.length} file(s):`,
    ...files,
    '',
    `The run's files are in the output folder for the publishing job (run.bundle, report.json, trajectory.jsonl).`,
    '',
  ].join('\n');
}
