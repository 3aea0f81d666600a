import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  byteBudget,
  type Delivery,
  MAX_UNVERIFIED_BYTES,
  type Refusal,
  readDelivery,
} from '../../src/bot/read-delivery.js';

/** GitHub's test vector for webhook signatures ("Validating webhook deliveries"). */
const SECRET = "It's a Secret to Everybody";
const BODY = 'Hello, World!';
const SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

let server: Server;
let url: string;
let last: Promise<Delivery | Refusal> = Promise.reject(new Error('no request yet'));
last.catch(() => {});

beforeAll(async () => {
  const budget = byteBudget(MAX_UNVERIFIED_BYTES);
  server = createServer((incoming, response) => {
    last = readDelivery(incoming, SECRET, budget);
    void last.then(() => response.end());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** Sends `parts` one write each (chunked), and returns what readDelivery made of them. */
async function read(
  parts: readonly (string | Buffer)[],
  headers: Record<string, string> = {},
): Promise<Delivery | Refusal> {
  await new Promise<void>((done, fail) => {
    const outgoing = request(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'ping',
        'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
        'x-hub-signature-256': SIGNATURE,
        ...headers,
      },
    });
    outgoing.on('response', (response) => response.resume().on('end', done));
    outgoing.on('error', fail);
    for (const part of parts) outgoing.write(part);
    outgoing.end();
  });
  return last;
}

describe('readDelivery', () => {
  it('accepts GitHub’s HMAC test vector, verified over the raw bytes', async () => {
    expect(await read([BODY])).toEqual({
      id: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      name: 'ping',
      body: BODY,
      signature: SIGNATURE,
    });
  });

  it('accepts the vector whatever chunks the body arrives in', async () => {
    expect(await read(['Hel', 'lo, ', 'World', '!'])).toMatchObject({ body: BODY });
  });

  it.each<[string, readonly (string | Buffer)[], Record<string, string>, number]>([
    ['a body with a trailing newline', [`${BODY}\n`], {}, 400],
    ['one hex digit changed', [BODY], { 'x-hub-signature-256': `${SIGNATURE.slice(0, -1)}8` }, 400],
    ['upper-case hex', [BODY], { 'x-hub-signature-256': SIGNATURE.toUpperCase() }, 400],
    ['a sha1= signature only', [BODY], { 'x-hub-signature-256': 'sha1=01234567' }, 400],
    ['no delivery id', [BODY], { 'x-github-delivery': '' }, 400],
    ['a form content type', [BODY], { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['a body announced over 25 MiB', [BODY], { 'content-length': String(26 * 1024 * 1024) }, 413],
  ])('refuses %s', async (_name, parts, headers, status) => {
    // A body announced longer than it is never ends: the refusal comes before reading it.
    const refusal =
      headers['content-length'] === undefined
        ? await read(parts, headers)
        : await refusedEarly(headers);
    expect(refusal).toMatchObject({ status });
  });
});

/** Sends only the headers of a request and returns readDelivery's answer to them. */
async function refusedEarly(headers: Record<string, string>): Promise<Delivery | Refusal> {
  const outgoing = request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'ping',
      'x-github-delivery': '1',
      'x-hub-signature-256': SIGNATURE,
      ...headers,
    },
  });
  outgoing.on('error', () => {});
  outgoing.flushHeaders();
  await new Promise<void>((done) => outgoing.on('response', () => done()));
  outgoing.destroy();
  return last;
}
