import {
  livePermission,
  mayRunCommands,
  type RepositoryRole,
} from '../github/collaborator-permission.js';
import {
  ISSUES_ONLY_REPLY,
  immediateReply,
  PULL_REQUESTS_ONLY_REPLY,
} from '../github/command-replies.js';
import { type CommandTrigger, readCommandTrigger } from '../github/command-trigger.js';
import {
  type CommentPayload,
  type LabeledPayload,
  readCommentPayload,
  readLabeledPayload,
} from '../github/issue-event-payloads.js';
import { PayloadShapeError } from '../github/payload-field.js';
import { AureusError, ExitCode } from '../model/errors.js';
import { ACTION_NO_CONTINUATION_REPLY, actionCannotReply } from './action-command-replies.js';
import type { ActionSettings } from './action-settings.js';
import { type CommandContext, commandContext, replyOn } from './command-context.js';
import {
  actionClient,
  eventPayload,
  GITHUB_ACTIONS_BOT_ID,
  required,
} from './runner-environment.js';
import { simplifyOnComment } from './simplify-on-comment.js';
import { cancelBuilderRun, startBuilderRun } from './start-builder-run.js';
import { logUntrusted } from './untrusted-log.js';

/** The events that carry commands and builder triggers; the others are judged as changes. */
export const COMMAND_EVENTS: ReadonlySet<string> = new Set(['issue_comment', 'issues']);

// github-actions[bot]'s comments (AUREUS's own replies among them) never run commands. GitHub
// starts no workflow for what that token does, so this matters where another token's job writes
// as that account.
export { GITHUB_ACTIONS_BOT_ID };

/**
 * `issue_comment` and `issues` in the Action: the same commands and builder triggers as the App,
 * decided the same way (command-trigger.ts, collaborator-permission.ts): only a new comment or
 * an added label counts, never a bot's unless the default branch's policy allows its id, and
 * only a person whose live permission, looked up by account id now, is write, maintain or admin.
 * Anything else ends here with a log line and exit 0: a refusal gets no reply, so nobody can
 * make the Action spam a thread (THREATS row 13).
 */
export async function runCommandEvent(
  settings: ActionSettings,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const eventName = required(env, 'GITHUB_EVENT_NAME');
  const raw = await eventPayload(env);
  if (settings.token === '')
    throw new AureusError(
      `AUREUS answers ${eventName} events through the API, and github-token is empty.`,
      'leave github-token at its default (the job token) and grant the permissions the README lists for commands.',
    );
  const client = actionClient(settings.token, env);
  if (eventName === 'issue_comment') {
    const payload = readPayload(() => readCommentPayload(raw), eventName);
    await onComment(commandContext(client, settings, env, payload), payload);
  } else {
    const payload = readPayload(() => readLabeledPayload(raw), eventName);
    await onLabel(commandContext(client, settings, env, payload), payload);
  }
  return ExitCode.pass;
}

async function onComment(context: CommandContext, payload: CommentPayload): Promise<void> {
  const settings = { appBotUserId: GITHUB_ACTIONS_BOT_ID, allowedBotIds: [] };
  let trigger: CommandTrigger = readCommandTrigger(payload, settings);
  if ('ignore' in trigger && trigger.ignore === 'bot-not-allowed') {
    const { allowed_bot_ids } = (await context.policy()).integrations.app;
    trigger = readCommandTrigger(payload, { ...settings, allowedBotIds: allowed_bot_ids });
  }
  if ('ignore' in trigger) return said(`AUREUS: nothing to do (${trigger.detail}).`);
  const { command, commenter } = trigger;
  if (!(await mayRun(context, commenter, 'command'))) return;
  const reply = (body: string) => replyOn(context, trigger.issueNumber, body);
  const immediate = immediateReply(command);
  if (immediate !== undefined) return reply(immediate);
  if (command.kind === 'implement' || command.kind === 'cancel') {
    if (trigger.isPullRequest) return reply(ISSUES_ONLY_REPLY);
    const builder = {
      context,
      issue: payload.issue,
      requester: commenter,
      via: 'comment' as const,
      triggerCommentId: trigger.commentId,
    };
    if (command.kind === 'cancel') return cancelBuilderRun(builder, trigger.commentId);
    return startBuilderRun(builder, command.instructions, {
      maxUsd: command.maxUsd,
      maxPoints: command.maxPoints,
    });
  }
  if (command.kind === 'approve-budget' && !trigger.isPullRequest)
    return reply(ACTION_NO_CONTINUATION_REPLY);
  if (!trigger.isPullRequest) return reply(PULL_REQUESTS_ONLY_REPLY);
  if (command.kind === 'simplify') return simplifyOnComment(context, trigger.issueNumber);
  return reply(actionCannotReply(command.kind));
}

async function onLabel(context: CommandContext, payload: LabeledPayload): Promise<void> {
  const { sender, label, issue } = payload;
  if (payload.action !== 'labeled' || label === null)
    return said(`AUREUS: nothing to do (issues event ${JSON.stringify(payload.action)}).`);
  // Own events never trigger; a pull request's label is not the builder's (an issue's is).
  if (sender.id === GITHUB_ACTIONS_BOT_ID || issue.pull_request !== null)
    return said('AUREUS: nothing to do (a label by the job token, or on a pull request).');
  const policy = await context.policy();
  if (label.name !== policy.integrations.app.builder_label)
    return said(
      `AUREUS: nothing to do (the label is not ${policy.integrations.app.builder_label}).`,
    );
  if (sender.type === 'Bot' && !policy.integrations.app.allowed_bot_ids.includes(sender.id))
    return said(`AUREUS: nothing to do (bot id ${sender.id} is not in allowed_bot_ids).`);
  // Whoever added the label, by id, live, now (THREATS row 6): not the issue's author.
  if (!(await mayRun(context, sender, 'label'))) return;
  await startBuilderRun({ context, issue, requester: sender, via: 'label' }, '', {});
}

/** The live permission of who asked; a refusal is logged, never answered. */
async function mayRun(
  context: CommandContext,
  account: { readonly id: number; readonly login: string },
  what: 'command' | 'label',
): Promise<boolean> {
  const permission = await livePermission(context.client, context.repository, account);
  if (mayRunCommands(permission.role)) return true;
  said(
    `AUREUS: the ${what} of ${account.login} (account ${account.id}) is refused: their permission on the repository is ${roleText(permission.role)}, and commands need write, maintain or admin.`,
  );
  return false;
}

function roleText(role: RepositoryRole): string {
  return role === 'none' ? 'none (or unverified)' : role;
}

/** Payload text (logins, actions, labels) goes to the log as data, never as workflow commands. */
function said(line: string): void {
  logUntrusted((text) => process.stdout.write(text), line);
}

function readPayload<T>(read: () => T, eventName: string): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof PayloadShapeError)) throw error;
    throw new AureusError(
      `the ${eventName} event is not one AUREUS can read: ${error.message}.`,
      'run AUREUS from a workflow triggered by GitHub (GITHUB_EVENT_PATH must be the event payload).',
    );
  }
}
