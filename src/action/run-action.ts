import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import { type CheckedChange, checkChangeWithInputs } from '../check/check-change.js';
import { ledgerRecord } from '../check/record-check.js';
import { listTrackedFiles } from '../git/index.js';
import { isPermissionDenied } from '../github/request-error.js';
import { appendToSharedLedger } from '../github/shared-ledger.js';
import { readWorkflowEvent, type WorkflowEvent } from '../github/workflow-event.js';
import { environmentError, movableFolders } from '../memory/environment-error.js';
import { writeOutputFile } from '../memory/output-file.js';
import { AureusError, ExitCode } from '../model/errors.js';
import type { Report } from '../model/report.js';
import { PolicyError } from '../policy/policy-problem.js';
import { escapeControls } from '../report/plain-text.js';
import { policyAnnotations, renderAnnotations } from '../report/render-annotations.js';
import { renderJson } from '../report/render-json.js';
import {
  renderMarkdown,
  renderToolError,
  TOOL_ERROR_TITLE,
  verdictTitle,
} from '../report/render-markdown.js';
import { renderSarif } from '../report/render-sarif.js';
import { renderText } from '../report/render-text.js';
import { simplifyPullRequest } from '../simplify/simplify-pull-request.js';
import { actionPolicyGate } from './action-policy-gate.js';
import { readActionSettings } from './action-settings.js';
import { withBuilderApproval } from './builder-pull-check.js';
import { changeOfTarget } from './change-of-target.js';
import { COMMAND_EVENTS, runCommandEvent } from './command-event.js';
import { failureOfReport } from './failure-of-report.js';
import { refuseImplementMode } from './implement-mode.js';
import { runLearnMode } from './learn-mode.js';
import { runPostPlanMode } from './post-plan-mode.js';
import { runPublishMode } from './publish-mode.js';
import { type Publication, publishVerdict } from './publish-report.js';
import { pushPolicyApproval } from './push-policy-approval.js';
import { actionClient, eventPayload, required } from './runner-environment.js';
import { keepSharedLedgerRetention } from './shared-ledger-retention.js';
import { setStepOutputs } from './step-outputs.js';
import { toolVersion } from './tool-version.js';
import { trendHistory } from './trend-history.js';
import { logUntrusted } from './untrusted-log.js';

/** The job summary takes 1 MiB per step; the report stays well inside it. */
const SUMMARY_BYTES = 512 * 1024;

/**
 * The Action's entry: read the inputs and the event once, build the change, call the same core
 * as the CLI, render, publish, and answer with the exit status (0 pass, 1 the policy says no,
 * 2 AUREUS could not decide). Every failure ends here, in one place, as a tool error.
 */
export async function runAction(env: NodeJS.ProcessEnv): Promise<number> {
  let publication: Publication | undefined;
  try {
    const settings = readActionSettings(env);
    if (settings.mode === 'implement') refuseImplementMode();
    if (settings.mode === 'publish') return await runPublishMode(settings, env);
    if (settings.mode === 'post-plan') return await runPostPlanMode(settings, env);
    if (settings.mode === 'learn') return await runLearnMode(settings, env);
    // Comments and labels carry commands and builder triggers, not a change to judge.
    if (COMMAND_EVENTS.has(env.GITHUB_EVENT_NAME ?? ''))
      return await runCommandEvent(settings, env);
    const event = readWorkflowEvent(required(env, 'GITHUB_EVENT_NAME'), await eventPayload(env));
    const client = settings.token === '' ? null : actionClient(settings.token, env);
    const request = changeOfTarget(event.target, {
      base: settings.base,
      head: settings.head,
      sha: required(env, 'GITHUB_SHA'),
    });
    publication = { settings, event, client, headSha: headShaOf(event, env) };
    if (request === null) {
      core.info('The push deleted a branch: there is no change to judge.');
      setStepOutputs({ verdict: 'pass' }, env);
      return ExitCode.pass;
    }
    const root = resolve(required(env, 'GITHUB_WORKSPACE'), settings.workingDirectory);
    const checked = await checkChangeWithInputs(root, request, {
      policyPath: settings.policyPath,
      cwd: root,
      toolVersion: toolVersion(),
      policyGate: actionPolicyGate(event, client),
    });
    // A builder's pull request also needs an independent approval (builder-pull-check.ts).
    const judged = { ...checked, report: await withBuilderApproval(event, client, checked) };
    publication = { ...publication, headSha: judged.report.change.headSha ?? publication.headSha };
    const exitCode = await concludeReport(publication, judged, root, env);
    await simplifyPullRequestOf(publication, judged, root);
    return exitCode;
  } catch (error) {
    return await concludeError(publication, error, env);
  }
}

async function concludeReport(
  publication: Publication,
  checked: CheckedChange,
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { report } = checked;
  const { settings } = publication;
  logUntrusted((line) => process.stdout.write(line), renderText(report, { color: false }));
  const failure = failureOfReport(report, settings.failOn);
  const repository = publication.event.repository;
  // The runner's own address for the server it serves (GitHub Enterprise Server included).
  const repositoryUrl = `${(env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/+$/, '')}/${repository.owner}/${repository.repo}`;
  const history = await trendHistory(publication);
  const markdown = renderMarkdown(report, { repositoryUrl, history });
  await writeOutputs(report, env);
  await core.summary
    .addRaw(renderMarkdown(report, { maxBytes: SUMMARY_BYTES, repositoryUrl, history }))
    .write();
  if (settings.sarifFile !== null)
    // The path is the workflow's, but what lies there is the pull request's: a committed link
    // must not turn the report into a write elsewhere on the runner.
    await writeOutputFile(
      resolve(root, settings.sarifFile),
      renderSarif(report, { toolVersion: report.tool.version }),
      {
        setting: 'the sarif-file input',
        within: { folder: required(env, 'GITHUB_WORKSPACE'), name: 'the workspace' },
      },
    );
  await publishVerdict(publication, {
    // A verdict the workflow chose not to fail on is still not a success.
    conclusion: failure !== null ? 'failure' : report.verdict === 'pass' ? 'success' : 'neutral',
    title: verdictTitle(report),
    markdown,
    annotations: renderAnnotations(report),
  });
  await recordOnDefaultBranch(publication, checked, root);
  if (failure === null) return ExitCode.pass;
  core.error(escapeControls(`AUREUS: ${report.reasons[0] ?? report.verdict}`));
  return failure === 'incomplete' ? ExitCode.error : ExitCode.rejected;
}

/**
 * Reflexion's delivery on a pull request, after the verdict is published: suggestions, the
 * `aureus: simplify` commit or a list of diffs (simplify-pull-request.ts). It never changes the
 * verdict or the exit code; when it cannot finish, a warning says why.
 */
async function simplifyPullRequestOf(
  publication: Publication,
  checked: CheckedChange,
  root: string,
): Promise<void> {
  const { event, client } = publication;
  const target = event.target;
  const headSha = checked.report.change.headSha;
  if (target.kind !== 'pull-request' || client === null || headSha === null) return;
  if (!checked.report.change.complete) return;
  if (target.fromFork) {
    // A fork's pull_request run has a read-only token: the work could not be delivered.
    core.info('Reflexion is not delivered on pull requests from forks (the token is read-only).');
    return;
  }
  try {
    const { lines } = await simplifyPullRequest({
      client,
      repository: event.repository,
      number: target.number,
      headSha,
      headRef: target.headRef,
      fromFork: target.fromFork,
      workTree: async () => {
        const tracked = await listTrackedFiles(root, headSha);
        const headFiles = new Map(tracked.map((file) => [file.path, file]));
        return { root, headFiles, dispose: async () => {} };
      },
      change: checked.change,
      report: checked.report,
      policy: checked.policy,
    });
    logUntrusted((text) => process.stdout.write(text), lines.join('\n'));
  } catch (error) {
    core.warning(
      isPermissionDenied(error)
        ? 'AUREUS could not deliver its simplifications: the token lacks the permission. To resolve, grant `pull-requests: write` (and `contents: write` for simplification.auto_commit) to this job.'
        : escapeControls(
            `AUREUS could not deliver its simplifications: ${error instanceof Error ? error.message : String(error)}`,
          ),
    );
  }
}

/** A tool error: said plainly in the log, the summary, the comment and the check run. */
async function concludeError(
  publication: Publication | undefined,
  error: unknown,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  // A full disk or a read-only folder on the runner is the machine's, not a bug: said with its fix.
  const explained =
    error instanceof AureusError
      ? error
      : environmentError(error, { movable: movableFolders(env) });
  const known = explained !== undefined;
  // Said in the log, where a name quoted in the message must not act (THREATS row 34).
  const message = escapeControls(
    known
      ? `${explained.message}\nTo resolve, ${explained.hint}`
      : `AUREUS internal error: ${error instanceof Error ? error.message : String(error)}`,
  );
  setStepOutputs({ verdict: 'incomplete' }, env);
  core.error(message);
  if (!known && error instanceof Error && error.stack !== undefined) core.debug(error.stack);
  const markdown = renderToolError(message);
  try {
    await core.summary.addRaw(markdown).write();
    if (publication !== undefined)
      await publishVerdict(publication, {
        conclusion: 'failure',
        title: TOOL_ERROR_TITLE,
        markdown,
        annotations: error instanceof PolicyError ? policyAnnotations(error.problems) : [],
      });
  } catch (publishing) {
    core.warning(escapeControls(`AUREUS could not publish the error: ${String(publishing)}`));
  }
  return ExitCode.error;
}

/**
 * The shared ledger gets one entry per commit that lands on the default branch, with who
 * approved a policy loosening it brings. It needs `contents: write` (and `pull-requests: read`
 * for the approval); without it the check still stands and a warning says what to grant.
 */
async function recordOnDefaultBranch(
  publication: Publication,
  { report, policy }: CheckedChange,
  root: string,
): Promise<void> {
  const { settings, event, client } = publication;
  const target = event.target;
  if (!settings.sharedLedger || client === null || target.kind !== 'push') return;
  if (target.ref !== `refs/heads/${target.defaultBranch}` || report.change.headSha === null) return;
  const approval = await pushPolicyApproval(client, event.repository, report, {
    branch: target.defaultBranch,
    root,
  });
  try {
    const result = await appendToSharedLedger(client, event.repository, {
      headSha: report.change.headSha,
      at: new Date().toISOString(),
      record: { ...ledgerRecord(report), ...approval, event: 'push', ref: target.ref },
    });
    core.info(
      result === 'written'
        ? `Recorded ${report.change.headSha} in the shared ledger (branch aureus-ledger).`
        : `${report.change.headSha} is already in the shared ledger.`,
    );
    if (result === 'written')
      await keepSharedLedgerRetention(client, event.repository, policy, new Date());
  } catch (error) {
    if (!isPermissionDenied(error)) throw error;
    core.warning(
      'AUREUS could not write the shared ledger: the token lacks the permission. To resolve, grant `contents: write` to this push job, or set shared-ledger: false.',
    );
  }
}

async function writeOutputs(report: Report, env: NodeJS.ProcessEnv): Promise<void> {
  // The runner's own temporary folder; without one, the workspace, where a link may wait.
  const folder = env.RUNNER_TEMP ?? required(env, 'GITHUB_WORKSPACE');
  const reportPath = join(folder, 'aureus-report.json');
  await writeOutputFile(reportPath, `${renderJson(report)}\n`, {
    setting: env.RUNNER_TEMP === undefined ? 'GITHUB_WORKSPACE' : 'RUNNER_TEMP',
    within: { folder, name: `the folder ${folder}` },
  });
  setStepOutputs(
    {
      verdict: report.verdict,
      'total-cost': String(report.cost.total),
      'cost-breakdown': JSON.stringify(report.cost),
      'blocking-findings': String(report.findings.filter((f) => f.blocking).length),
      'report-path': reportPath,
    },
    env,
  );
}

function headShaOf(event: WorkflowEvent, env: NodeJS.ProcessEnv): string | null {
  const target = event.target;
  if (target.kind === 'pull-request' || target.kind === 'merge-group') return target.headSha;
  if (target.kind === 'push') return target.after;
  return env.GITHUB_SHA ?? null;
}
