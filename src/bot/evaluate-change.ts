import type { CheckedChange } from '../check/check-api-change.js';
import { ledgerRecord } from '../check/record-check.js';
import { type AureusComments, readAureusComments } from '../github/aureus-comments.js';
import {
  type CheckConclusion,
  type CheckRunOutput,
  completeCheckRun,
  startCheckRun,
} from '../github/check-run.js';
import { latestCheckRun } from '../github/check-run-state.js';
import type { GitHubClient } from '../github/github-client.js';
import { repositoryWebUrl } from '../github/repository-coordinates.js';
import { upsertStickyComment, writeStickyComment } from '../github/sticky-comment.js';
import { appendToAppLedger, appLedgerCostHistory } from '../memory/app-ledger.js';
import { ledgerAnchorMarker } from '../memory/ledger-anchor-marker.js';
import { AureusError } from '../model/errors.js';
import type { Report } from '../model/report.js';
import { PolicyError } from '../policy/policy-problem.js';
import {
  type Annotation,
  policyAnnotations,
  renderAnnotations,
} from '../report/render-annotations.js';
import {
  ledgerMarker,
  renderMarkdown,
  renderToolError,
  TOOL_ERROR_TITLE,
  verdictTitle,
} from '../report/render-markdown.js';
import { budgetApprovalReply, postApprovalReply } from './budget-approval.js';
import { checkConclusion } from './check-conclusion.js';
import type { AppServices, EvaluationRequest } from './evaluation-request.js';
import { judgeRequest } from './judge-request.js';
import { type AppRepository, externalIdOf } from './judged-change.js';
import { policyApprovalReply } from './policy-approval.js';

export type EvaluationOutcome =
  | { readonly status: 'skipped'; readonly reason: string }
  | {
      readonly status: 'concluded';
      readonly conclusion: CheckConclusion;
      readonly report: Report;
      /** What was judged, with what: reflexion follows on it. */
      readonly checked: CheckedChange;
    }
  | { readonly status: 'failed'; readonly error: unknown };

/**
 * One evaluation: a check run in progress on the head, the change read and judged over the
 * API by the same core as every other surface, the sticky comment, the ledger line, and the
 * check run concluded — always, also when anything in between throws (THREATS row 26). The
 * steps are ordered so that replaying a job after a crash anywhere gives the same single
 * comment, ledger line and conclusion: the conclusion comes last and marks the head as done.
 * `onJudged` is called once the change is judged: what follows is publishing, which waits on
 * GitHub's spacing of writes rather than on this machine (the work queue's slot goes back).
 */
export async function evaluateChange(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
  onJudged: () => void = () => {},
): Promise<EvaluationOutcome> {
  const { repository, headSha, judged } = request;
  const fields = { delivery: request.deliveryId, repository: fullName(repository), headSha };
  const existing = await latestCheckRun(
    client,
    repository,
    headSha,
    services.checkName,
    services.identity.appId,
  );
  if (request.trigger === 'event' && existing?.status === 'completed') {
    services.log.info(fields, 'head already has a concluded check; nothing to do');
    return { status: 'skipped', reason: 'already concluded' };
  }
  const checkRunId =
    request.trigger === 'event' && existing !== undefined
      ? existing.id
      : await startCheckRun(client, {
          ...repository,
          name: services.checkName,
          headSha,
          externalId: externalIdOf(judged),
        });
  let comments: AureusComments | undefined;
  try {
    comments = await ownComments(client, services, request);
    const judgement = await judgeRequest(client, services, request, {
      budget: comments.approvals,
      policy: comments.policyApprovals,
    });
    const { report, policy } = judgement;
    onJudged();
    if (report.change.headSha !== headSha) {
      await conclude(client, repository, checkRunId, 'cancelled', {
        title: 'Superseded by a newer push',
        summary: `The pull request moved to ${report.change.headSha ?? 'another commit'} while this check ran; that commit gets its own check.`,
      });
      return { status: 'skipped', reason: 'superseded' };
    }
    if (request.approval !== undefined && judged.kind === 'pull')
      await postApprovalReply(
        client,
        { ...issueOf(repository, judged.number), headSha, approval: request.approval },
        comments.approvals,
        budgetApprovalReply(report, headSha, request.approval),
      );
    if (request.policyApproval !== undefined && judged.kind === 'pull')
      await postApprovalReply(
        client,
        { ...issueOf(repository, judged.number), headSha, approval: request.policyApproval },
        comments.policyApprovals,
        policyApprovalReply(report, headSha, request.policyApproval),
      );
    const key = `${request.event}:${headSha}`;
    const pullRequest = judged.kind === 'pull' ? judged.number : null;
    const history = await appLedgerCostHistory(services.dataDir, repository.id, key, pullRequest);
    const repositoryUrl = repositoryWebUrl(client.request.endpoint.DEFAULTS.baseUrl, repository);
    const markdown = renderMarkdown(report, {
      history,
      ...(repositoryUrl === undefined ? {} : { repositoryUrl }),
    });
    if (judged.kind === 'pull' && policy.integrations.app.comments)
      await writeStickyComment(
        client,
        issueOf(repository, judged.number),
        comments.sticky,
        markdown,
      );
    const recorded = await appendToAppLedger(
      services.dataDir,
      repository.id,
      key,
      {
        ...ledgerRecord(report, judgement.override),
        event: request.event,
        delivery: request.deliveryId,
        repository: fullName(repository),
        ...(pullRequest === null ? {} : { pullRequest }),
      },
      policy.memory.ledger_retention_days,
    );
    const conclusion = checkConclusion(report, policy.integrations.incomplete_conclusion);
    await conclude(
      client,
      repository,
      checkRunId,
      conclusion,
      // The ledger's anchor goes where losing the App's data folder cannot take it.
      { title: verdictTitle(report), summary: markdown, text: ledgerAnchorMarker(recorded.anchor) },
      renderAnnotations(report),
    );
    services.log.info({ ...fields, verdict: report.verdict, conclusion }, 'check concluded');
    return { status: 'concluded', conclusion, report, checked: judgement };
  } catch (error) {
    await concludeError(client, services, request, checkRunId, comments, error);
    return { status: 'failed', error };
  }
}

async function ownComments(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
): Promise<AureusComments> {
  if (request.judged.kind !== 'pull') return { approvals: [], policyApprovals: [] };
  return readAureusComments(
    client,
    issueOf(request.repository, request.judged.number),
    services.identity.botUserId,
    ledgerMarker(),
  );
}

/**
 * A tool error is said in the check run (and, for a known error such as a broken policy, in the
 * sticky comment, as the Action does). An unknown error is "AUREUS internal error" and nothing
 * more: its message may carry what a repository's readers should not see; the log has it.
 */
async function concludeError(
  client: GitHubClient,
  services: AppServices,
  request: EvaluationRequest,
  checkRunId: number,
  comments: AureusComments | undefined,
  error: unknown,
): Promise<void> {
  const { repository, judged } = request;
  const fields = { delivery: request.deliveryId, repository: fullName(repository), err: error };
  const known = error instanceof AureusError;
  services.log.error(fields, known ? 'change could not be judged' : 'AUREUS internal error');
  const message = known
    ? `${error.message}\nTo resolve, ${error.hint}`
    : `AUREUS internal error: the change was not judged. The App's log has the details (delivery ${request.deliveryId}).`;
  const summary = renderToolError(message);
  try {
    if (known && judged.kind === 'pull') {
      const target = issueOf(repository, judged.number);
      if (comments === undefined)
        await upsertStickyComment(client, target, ledgerMarker(), summary);
      else await writeStickyComment(client, target, comments.sticky, summary);
    }
    await conclude(
      client,
      repository,
      checkRunId,
      'failure',
      { title: known ? TOOL_ERROR_TITLE : 'AUREUS internal error', summary },
      error instanceof PolicyError ? policyAnnotations(error.problems) : [],
    );
  } catch (publishing) {
    services.log.error({ ...fields, err: publishing }, 'could not conclude the check run');
  }
}

function conclude(
  client: GitHubClient,
  repository: AppRepository,
  id: number,
  conclusion: CheckConclusion,
  output: CheckRunOutput,
  annotations: readonly Annotation[] = [],
): Promise<void> {
  return completeCheckRun(client, {
    owner: repository.owner,
    repo: repository.repo,
    id,
    conclusion,
    output,
    annotations,
  });
}

function issueOf(repository: AppRepository, issueNumber: number) {
  return { owner: repository.owner, repo: repository.repo, issueNumber };
}

function fullName(repository: AppRepository): string {
  return `${repository.owner}/${repository.repo}`;
}
