import { payloadField as field } from '../../github/payload-field.js';
import {
  parseRepositoryName,
  type RepositoryCoordinates,
} from '../../github/repository-coordinates.js';
import { type AureusCommand, parseCommand } from './parse-command.js';

/**
 * Whether an `issue_comment` webhook asks AUREUS to do something, and who asks. This is the
 * filter before any API call; whether that person may run commands is decided afterwards from
 * their live repository permission (collaborator-permission.ts), never from this payload.
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

export function readCommandTrigger(payload: unknown, settings: TriggerSettings): CommandTrigger {
  const action = field(payload, 'action');
  if (action !== 'created') return ignore('not-created', `action ${JSON.stringify(action)}`);
  const sender = accountOf(field(payload, 'sender'));
  if (sender === undefined) return ignore('malformed', 'no valid sender');
  if (sender.id === settings.appBotUserId) return ignore('own-event', 'comment by the App');
  if (sender.type === 'Bot' && !settings.allowedBotIds.includes(sender.id)) {
    return ignore('bot-not-allowed', `bot id ${sender.id} is not in allowed_bot_ids`);
  }
  const comment = field(payload, 'comment');
  const author = accountOf(field(comment, 'user'));
  // The sender of `created` is the comment's author; anything else is not a payload to act on.
  if (author === undefined || author.id !== sender.id)
    return ignore('malformed', 'comment author is not the sender');
  const commentId = positiveInteger(field(comment, 'id'));
  const body = field(comment, 'body');
  const issue = field(payload, 'issue');
  const issueNumber = positiveInteger(field(issue, 'number'));
  const fullName = field(field(payload, 'repository'), 'full_name');
  const repository = typeof fullName === 'string' ? parseRepositoryName(fullName) : undefined;
  if (
    commentId === undefined ||
    typeof body !== 'string' ||
    issueNumber === undefined ||
    repository === undefined
  ) {
    return ignore('malformed', 'no valid comment, issue or repository');
  }
  const command = parseCommand(body);
  if (command === null) return ignore('no-command', 'no /aureus line');
  const pullRequest = field(issue, 'pull_request');
  return {
    command,
    commenter: sender,
    issueNumber,
    // Issues and pull requests share comments; a pull request's issue has this object.
    isPullRequest: typeof pullRequest === 'object' && pullRequest !== null,
    commentId,
    repository,
  };
}

function ignore(reason: IgnoreReason, detail: string): CommandTrigger {
  return { ignore: reason, detail };
}

function accountOf(value: unknown): Commenter | undefined {
  const id = positiveInteger(field(value, 'id'));
  const login = field(value, 'login');
  const type = field(value, 'type');
  if (id === undefined || typeof login !== 'string' || typeof type !== 'string') return undefined;
  return { id, login, type };
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
