import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { objectAt } from '../support/webhook-examples.js';
import {
  commentPayload,
  mergeGroupPayload,
  pullRequestPayload,
  rerequestPayload,
} from './support/app-payloads.js';
import {
  APP_ID,
  type AppSession,
  startAppSession,
  WEBHOOK_PATH,
  WEBHOOK_SECRET,
} from './support/app-session.js';
import { postLargeDelivery } from './support/large-delivery.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const MIB = 1024 * 1024;
/** What an answer to a refused payload must never show: error names, stack frames, values. */
const INTERNAL_TEXT = /error|cannot|undefined|null|\bat .*:\d+|\.(js|ts)\b|reading/i;

let session: AppSession;

beforeAll(async () => {
  session = await startAppSession('octo');
});

beforeEach(() => session.double.reset());

afterAll(() => session.close());

const pull = () => pullRequestPayload('opened', { number: 3, baseSha: SHA_A, headSha: SHA_B });
const author = { login: 'ada', id: 7001, type: 'User' };

describe('the App’s front door: payload shape', () => {
  it.each<[string, string, () => Record<string, unknown>]>([
    ['pull_request: null', 'pull_request', () => ({ ...pull(), pull_request: null })],
    ['pull_request a string', 'pull_request', () => ({ ...pull(), pull_request: 'opened' })],
    ['no repository', 'pull_request', () => ({ ...pull(), repository: undefined })],
    [
      'a numeric head sha',
      'pull_request',
      () => {
        const payload = pull();
        Reflect.set(objectAt(objectAt(payload, 'pull_request'), 'head'), 'sha', 42);
        return payload;
      },
    ],
    [
      'a merge group without repository',
      'merge_group',
      () => ({ ...mergeGroupPayload(SHA_A, SHA_B), repository: undefined }),
    ],
    [
      'check_run: null',
      'check_run',
      () => ({
        ...rerequestPayload({ id: 1, headSha: SHA_B, externalId: 'pull:3', appId: APP_ID }),
        check_run: null,
      }),
    ],
    [
      'a comment that is a string',
      'issue_comment',
      () => ({ ...commentPayload(3, '/aureus help', author), comment: '/aureus help' }),
    ],
    [
      'a repository id that is a string',
      'issue_comment',
      () => {
        const payload = commentPayload(3, '/aureus help', author);
        Reflect.set(objectAt(payload, 'repository'), 'id', '5150');
        return payload;
      },
    ],
  ])(
    'answers a signed payload with %s: 400, a fixed text, no API call',
    async (_name, event, payload) => {
      const answer = await session.deliver(event, payload());
      await session.app.idle();
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(100);
      expect(answer.text).not.toMatch(INTERNAL_TEXT);
      expect(session.double.requests()).toEqual([]);
    },
  );
});

describe('the App’s front door: body size', () => {
  it('refuses a 26 MiB body with a valid signature: 413, no API call', async () => {
    const outcome = await postLargeDelivery({
      url: `${session.app.url}${WEBHOOK_PATH}`,
      bytes: 26 * MIB,
      chunked: false,
      secret: WEBHOOK_SECRET,
    });
    await session.app.idle();
    expect(outcome.status).toBe(413);
    expect(session.double.requests()).toEqual([]);
  });

  it('refuses a forged 30 MiB body of unannounced size before reading all of it', async () => {
    const outcome = await postLargeDelivery({
      url: `${session.app.url}${WEBHOOK_PATH}`,
      bytes: 30 * MIB,
      chunked: true,
      secret: 'not-the-secret',
    });
    await session.app.idle();
    // The answer is 413 as soon as the cap is passed, and the connection closes: a sender still
    // writing may see the close before it reads the answer. Either way the rest is never read.
    if (outcome.status === undefined) expect(outcome.sentAll).toBe(false);
    else expect(outcome.status).toBe(413);
    expect(session.double.requests()).toEqual([]);
  });
});
