import {
  livePermission,
  mayApprovePolicy,
  mayRunCommands,
} from '../github/collaborator-permission.js';
import {
  approvePolicyRefusedReply,
  ISSUES_ONLY_REPLY,
  immediateReply,
  PULL_REQUESTS_ONLY_REPLY,
} from '../github/command-replies.js';
import { type Commenter, readCommandTrigger } from '../github/command-trigger.js';
import type { GitHubClient } from '../github/github-client.js';
import type { CommentPayload } from '../github/issue-event-payloads.js';
import type { AureusCommand } from '../github/parse-command.js';
import type { AppLog } from './app-log.js';
import { BUILDER_SELF_APPROVAL_REPLY, builderPullOf } from './builder/builder-pull.js';
import type { AppServices, EvaluationRequest } from './evaluation-request.js';
import type { AppRepository } from './judged-change.js';

export interface CommandEvent {
  readonly client: GitHubClient;
  readonly services: AppServices;
  readonly deliveryId: string;
  readonly payload: CommentPayload;
  /** `integrations.app.allowed_bot_ids` of the default branch's policy: read only for a bot. */
  readonly allowedBotIds: () => Promise<readonly number[]>;
  /** Queues a (re-)evaluation of a head; the answer comes from the job. */
  readonly evaluate: (request: EvaluationRequest) => void;
  /** Queues a cost preview for a pull request; the job replies with it. */
  readonly preview: (repository: AppRepository, pullNumber: number) => void;
  /** Queues `/aureus implement` or `cancel` on an issue, the requester's permission checked. */
  readonly builder: (command: BuilderCommand, requester: Commenter) => void;
  /** Records a refused builder trigger in the App ledger. */
  readonly refuseBuilder: (requester: Commenter, reason: string) => Promise<void>;
}

export type BuilderCommand = Extract<
  AureusCommand,
  { kind: 'implement' | 'cancel' | 'approve-budget' }
>;

export type CommandOutcome = 'ignored' | 'refused' | 'replied' | 'queued';

/**
 * `issue_comment.created`: who asks, whether they may, and what to do. The payload only says
 * who commented; the permission is looked up live, by numeric id, at this moment (THREATS
 * rules 5, rows 5–7). Refusals get no reply: a reply to every comment of a read-only user would
 * let anyone make the App spam a thread (row 13). The pull request's head is read now, so an
 * approval binds to the commit the maintainer saw, not to whatever is pushed later.
 */
export async function handleCommand(event: CommandEvent): Promise<CommandOutcome> {
  const { client, services, payload } = event;
  const log = logFor(services.log, event);
  const settings = { appBotUserId: services.identity.botUserId, allowedBotIds: [] };
  let trigger = readCommandTrigger(payload, settings);
  if ('ignore' in trigger && trigger.ignore === 'bot-not-allowed') {
    trigger = readCommandTrigger(payload, {
      ...settings,
      allowedBotIds: [...(await event.allowedBotIds())],
    });
  }
  if ('ignore' in trigger) {
    log.debug({ reason: trigger.ignore, detail: trigger.detail }, 'comment ignored');
    return 'ignored';
  }
  const { command, commenter, repository } = trigger;
  const permission = await livePermission(client, repository, commenter);
  if (!mayRunCommands(permission.role)) {
    log.info(
      { commenter: commenter.id, role: permission.role },
      'command refused: no write access',
    );
    if (
      command.kind === 'implement' ||
      (command.kind === 'approve-budget' && !trigger.isPullRequest)
    )
      await event.refuseBuilder(commenter, `no write access (${permission.role})`);
    return 'refused';
  }
  const reply = (body: string) =>
    client.rest.issues.createComment({ ...repository, issue_number: trigger.issueNumber, body });
  const immediate = immediateReply(command);
  if (immediate !== undefined) {
    await reply(immediate);
    return 'replied';
  }
  if (command.kind === 'implement' || command.kind === 'cancel') {
    if (trigger.isPullRequest) {
      await reply(ISSUES_ONLY_REPLY);
      return 'replied';
    }
    event.builder(command, commenter);
    return 'queued';
  }
  // On an issue, approve-budget lets its stopped builder run go on with more (continue-builder.ts).
  if (command.kind === 'approve-budget' && !trigger.isPullRequest) {
    event.builder(command, commenter);
    return 'queued';
  }
  if (!trigger.isPullRequest) {
    await reply(PULL_REQUESTS_ONLY_REPLY);
    return 'replied';
  }
  if (command.kind === 'approve-policy' && !mayApprovePolicy(permission.role)) {
    // The commenter may run commands, so a reply cannot be used to spam; it says why nothing moved.
    log.info({ commenter: commenter.id, role: permission.role }, 'policy approval refused');
    await reply(approvePolicyRefusedReply(permission.role));
    return 'refused';
  }
  const appRepository = { ...repository, id: payload.repository.id };
  if (command.kind === 'price') {
    event.preview(appRepository, trigger.issueNumber);
    return 'queued';
  }
  const { data: pull } = await client.rest.pulls.get({
    ...repository,
    pull_number: trigger.issueNumber,
  });
  if (command.kind === 'approve-budget' || command.kind === 'approve-policy') {
    const builder = await builderPullOf(services.dataDir, appRepository, pull);
    if (builder?.notIndependent.includes(commenter.id) === true) {
      log.info({ commenter: commenter.id, run: builder.runId }, 'builder self-approval refused');
      await reply(BUILDER_SELF_APPROVAL_REPLY);
      return 'refused';
    }
  }
  event.evaluate({
    repository: appRepository,
    headSha: pull.head.sha,
    judged: { kind: 'pull', number: trigger.issueNumber },
    trigger: 'rerun',
    event: `issue_comment.${command.kind}`,
    deliveryId: event.deliveryId,
    ...(command.kind === 'approve-budget'
      ? {
          approval: {
            approverId: commenter.id,
            approverLogin: commenter.login,
            reason: command.reason,
          },
        }
      : {}),
    ...(command.kind === 'simplify' ? { simplifyRequested: true } : {}),
    ...(command.kind === 'approve-policy'
      ? {
          policyApproval: {
            approverId: commenter.id,
            approverLogin: commenter.login,
            reason: command.reason === '' ? 'no reason given' : command.reason,
          },
        }
      : {}),
  });
  return 'queued';
}

function logFor(log: AppLog, event: CommandEvent): AppLog {
  const base = { delivery: event.deliveryId };
  return {
    info: (fields, message) => log.info({ ...base, ...fields }, message),
    warn: (fields, message) => log.warn({ ...base, ...fields }, message),
    error: (fields, message) => log.error({ ...base, ...fields }, message),
    debug: (fields, message) => log.debug({ ...base, ...fields }, message),
  };
}
