import type { CommentPayload } from './issue-event-payloads.js';
import { type AureusCommand, parseCommand } from './parse-command.js';
import type { RepositoryCoordinates } from './repository-coordinates.js';

/**
 * Whether an `issue_comment` webhook asks AUREUS to do something, and who asks, from its payload
 * as event-payloads.ts read it. This is the filter before any API call of the command; whether
 * that person may run commands is decided afterwards from their live repository permission
 * (collaborator-permission.ts), never from this payload.
 *
 * Identities are numeric ids only (THREATS rows 4, 5): a user named `aureus[bot]` is not the
 * App, and a bot named like an allow-listed one is not allow-listed. Only `created` triggers:
 * an edit could add a command after others have read the comment (row 7).
 */
export type CommandTrigger =
  | { readonly ignore: IgnoreReason; readonly detail: string }
  | {
      readonly command: AureusCommand;
      readonly commenter: Commenter;
      readonly issueNumber: number;
      readonly isPullRequest: boolean;
      readonly commentId: number;
      readonly repository: RepositoryCoordinates;
    };

export type IgnoreReason =
  | 'not-created'
  | 'own-event'
  | 'bot-not-allowed'
  | 'no-command'
  | 'malformed';

export interface Commenter {
  readonly id: number;
  /** For messages only: logins change and are reused, so nothing is decided on it. */
  readonly login: string;
  /** GitHub's account type: `User`, `Bot`, `Organization`, `Mannequin`… */
  readonly type: string;
}

export interface TriggerSettings {
  /** The numeric user id of the App's bot account (`<slug>[bot]`), not the App id. */
  readonly appBotUserId: number;
  /** `integrations.app.allowed_bot_ids` from the base branch's policy. */
  readonly allowedBotIds: readonly number[];
}

export function readCommandTrigger(
  payload: CommentPayload,
  settings: TriggerSettings,
): CommandTrigger {
  if (payload.action !== 'created')
    return ignore('not-created', `action ${JSON.stringify(payload.action)}`);
  const sender = payload.sender;
  if (sender.id === settings.appBotUserId) return ignore('own-event', 'comment by the App');
  if (sender.type === 'Bot' && !settings.allowedBotIds.includes(sender.id)) {
    return ignore('bot-not-allowed', `bot id ${sender.id} is not in allowed_bot_ids`);
  }
  // The sender of `created` is the comment's author; anything else is not a payload to act on.
  if (payload.comment.user.id !== sender.id)
    return ignore('malformed', 'comment author is not the sender');
  const command = parseCommand(payload.comment.body);
  if (command === null) return ignore('no-command', 'no /aureus line');
  return {
    command,
    commenter: { id: sender.id, login: sender.login, type: sender.type },
    issueNumber: payload.issue.number,
    isPullRequest: payload.issue.pull_request !== null,
    commentId: payload.comment.id,
    repository: { owner: payload.repository.owner.login, repo: payload.repository.name },
  };
}

function ignore(reason: IgnoreReason, detail: string): CommandTrigger {
  return { ignore: reason, detail };
}
