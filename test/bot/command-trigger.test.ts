import { describe, expect, it } from '@jest/globals';
import {
  readCommandTrigger as readTrigger,
  type TriggerSettings,
} from '../../src/github/command-trigger.js';
import { readCommentPayload } from '../../src/github/issue-event-payloads.js';
import { PayloadShapeError } from '../../src/github/payload-field.js';
import { objectAt, webhookExample } from '../support/webhook-examples.js';

/** The App's bot account id (what `aureus[bot]` comments as), not the App id. */
const APP_BOT_ID = 990001;
const HELPER_BOT_ID = 990002;
const SETTINGS: TriggerSettings = { appBotUserId: APP_BOT_ID, allowedBotIds: [HELPER_BOT_ID] };

type Account = { login: string; id: number; type: string };

/** A real `issue_comment.created` payload with this body and this author as sender and user. */
/** The trigger of a payload as the App reads it: its shape first, then what it asks. */
function readCommandTrigger(payload: unknown, settings: TriggerSettings) {
  return readTrigger(readCommentPayload(payload), settings);
}

function commentPayload(body: string, author?: Account): Record<string, unknown> {
  const payload = webhookExample('issue_comment', 'created');
  const comment = payload.comment;
  if (typeof comment !== 'object' || comment === null) throw new Error('example has no comment');
  Reflect.set(comment, 'body', body);
  if (author !== undefined) {
    Reflect.set(payload, 'sender', { ...objectAt(payload, 'sender'), ...author });
    Reflect.set(comment, 'user', { ...objectAt(comment, 'user'), ...author });
  }
  return payload;
}

describe('readCommandTrigger over real issue_comment payloads', () => {
  it('reads a command from a user comment on an issue', () => {
    const trigger = readCommandTrigger(commentPayload('/aureus price'), SETTINGS);
    expect(trigger).toEqual({
      command: { kind: 'price' },
      commenter: { id: 21031067, login: 'Codertocat', type: 'User' },
      issueNumber: 1,
      isPullRequest: false,
      commentId: 492700400,
      repository: { owner: 'Codertocat', repo: 'Hello-World' },
    });
  });

  it('knows a pull request comment by the issue’s pull_request object', () => {
    const payload = commentPayload('/aureus check');
    Reflect.set(objectAt(payload, 'issue'), 'pull_request', { url: 'https://x/pulls/1' });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({ isPullRequest: true });
  });

  it.each(['edited', 'deleted'])('ignores %s comments, even ones that add a command', (action) => {
    const payload = commentPayload('/aureus approve-budget sneaky');
    payload.action = action;
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({ ignore: 'not-created' });
  });

  it('ignores the App’s own comments by numeric id', () => {
    const payload = commentPayload('/aureus check', {
      login: 'aureus[bot]',
      id: APP_BOT_ID,
      type: 'Bot',
    });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({ ignore: 'own-event' });
  });

  it('ignores the App’s id whatever login and type the payload claims', () => {
    const payload = commentPayload('/aureus check', {
      login: 'maintainer',
      id: APP_BOT_ID,
      type: 'User',
    });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({ ignore: 'own-event' });
  });

  it('treats a user whose login looks like the App as an ordinary user', () => {
    const payload = commentPayload('/aureus check', {
      login: 'aureus[bot]',
      id: 4242,
      type: 'User',
    });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({
      command: { kind: 'check' },
      commenter: { id: 4242, login: 'aureus[bot]', type: 'User' },
    });
  });

  it('ignores a bot that is not allow-listed, even named like one', () => {
    const payload = commentPayload('/aureus check', {
      login: 'dependabot-helper[bot]',
      id: 31337,
      type: 'Bot',
    });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({ ignore: 'bot-not-allowed' });
  });

  it('accepts an allow-listed bot by id, leaving the permission check to follow', () => {
    const payload = commentPayload('/aureus check', {
      login: 'renamed-helper[bot]',
      id: HELPER_BOT_ID,
      type: 'Bot',
    });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({
      command: { kind: 'check' },
      commenter: { id: HELPER_BOT_ID, type: 'Bot' },
    });
  });

  it('ignores comments without a command, and quoted commands', () => {
    expect(readCommandTrigger(commentPayload('LGTM'), SETTINGS)).toMatchObject({
      ignore: 'no-command',
    });
    expect(readCommandTrigger(commentPayload('> /aureus check'), SETTINGS)).toMatchObject({
      ignore: 'no-command',
    });
  });

  it('ignores a payload whose comment author is not the sender', () => {
    const payload = commentPayload('/aureus check');
    Reflect.set(objectAt(payload, 'comment'), 'user', { login: 'someone', id: 5, type: 'User' });
    expect(readCommandTrigger(payload, SETTINGS)).toMatchObject({ ignore: 'malformed' });
  });

  it.each<[string, (payload: Record<string, unknown>) => void]>([
    ['a string id', (payload) => Reflect.set(objectAt(payload, 'sender'), 'id', '21031067')],
    ['no sender', (payload) => Reflect.deleteProperty(payload, 'sender')],
    ['no body', (payload) => Reflect.set(objectAt(payload, 'comment'), 'body', null)],
    [
      'a fractional issue number',
      (payload) => Reflect.set(objectAt(payload, 'issue'), 'number', 1.5),
    ],
    [
      'a bad repository name',
      (payload) => Reflect.set(objectAt(payload, 'repository'), 'name', 'b/c'),
    ],
    [
      'an issue’s pull_request that is a string',
      (payload) => {
        Reflect.set(objectAt(payload, 'issue'), 'pull_request', 'yes');
      },
    ],
  ])('refuses a payload with %s as of the wrong shape', (_name, edit) => {
    const payload = commentPayload('/aureus check');
    edit(payload);
    expect(() => readCommentPayload(payload)).toThrow(PayloadShapeError);
  });

  it('never reads inherited properties as payload fields', () => {
    const sender = Object.create({ id: 21031067, login: 'Codertocat', type: 'User' });
    const payload = commentPayload('/aureus check');
    payload.sender = sender;
    expect(() => readCommentPayload(payload)).toThrow(PayloadShapeError);
    expect(() => readCommentPayload(null)).toThrow(PayloadShapeError);
  });
});
