import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { nextRequestOrder } from './request-order.js';

/** Replies every scripted model server knows besides its own API's success shape. */
export type ScriptedFault =
  /** An API error in the API's own error shape, with headers (retry-after, x-should-retry…). */
  | {
      readonly status: number;
      readonly message: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /**
   * A request that gets no answer until the client gives up (or the server closes). The SDKs
   * retry a timeout: script one per attempt, or give the client no retries.
   */
  | { readonly hold: true }
  /** A 200 whose body is these bytes, not JSON. */
  | { readonly malformed: string };

/** One request as the server saw it: search `raw` and `headers` for anything that leaked. */
export interface RecordedRequest<Body> {
  readonly apiKey: string | undefined;
  readonly headers: IncomingHttpHeaders;
  /** The body's text as sent. */
  readonly raw: string;
  readonly body: Body;
  /** Its place among the requests of every test server (request-order.ts). */
  readonly order: number;
}

export interface ScriptedServer<Reply, Body> {
  /** The base URL to give the SDK or model_provider.base_url. */
  readonly url: string;
  /** Queues the replies of the next requests, in order. */
  script(...replies: Array<Reply | ScriptedFault>): void;
  readonly requests: readonly RecordedRequest<Body>[];
  /** Every recorded request's headers and body as one text, for tests that grep for a leak. */
  transcript(): string;
  close(): Promise<void>;
}

/** What an API does with a request: its path, its check of the body, its shapes. */
export interface ApiShape<Reply, Body> {
  readonly path: string;
  /** Undefined when the body is as the API wants, else the message of the 400 it gets. */
  invalid(body: Body): string | undefined;
  success(reply: Reply, body: Body, index: number): unknown;
  error(status: number, message: string): unknown;
}

/**
 * A local HTTP stand-in for a model API: each request gets the next scripted reply, an error, a
 * malformed body, or no answer at all. A request with no reply left, or not shaped as the API
 * wants, is a 400 the test sees as a failure. Nothing leaves 127.0.0.1.
 */
export async function startScriptedServer<Reply extends object, Body>(
  api: ApiShape<Reply, Body>,
): Promise<ScriptedServer<Reply, Body>> {
  const replies: Array<Reply | ScriptedFault> = [];
  const requests: RecordedRequest<Body>[] = [];
  const server = createServer((request, response) => {
    void answer(api, request, response, replies, requests);
  });
  // No idle timeout: a client reusing its pooled socket as Node closes it gets ECONNRESET on a
  // busy machine. close() ends every connection, held ones included.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script: (...next) => replies.push(...next),
    requests,
    transcript: () =>
      requests.map((request) => `${JSON.stringify(request.headers)}\n${request.raw}`).join('\n'),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

async function answer<Reply extends object, Body>(
  api: ApiShape<Reply, Body>,
  request: IncomingMessage,
  response: ServerResponse,
  replies: Array<Reply | ScriptedFault>,
  requests: RecordedRequest<Body>[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': 'req_test',
      ...headers,
    });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  if (request.method !== 'POST' || request.url !== api.path)
    return send(404, api.error(404, 'not found'));
  const raw = Buffer.concat(chunks).toString('utf8');
  let body: Body;
  try {
    body = JSON.parse(raw);
  } catch {
    return send(400, api.error(400, 'the body is not JSON'));
  }
  // Keys come as `x-api-key` or `Authorization: Bearer`: either counts.
  const header = request.headers['x-api-key'];
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  requests.push({
    apiKey: typeof header === 'string' ? header : bearer,
    headers: request.headers,
    raw,
    body,
    order: nextRequestOrder(),
  });
  const invalid = api.invalid(body);
  if (invalid !== undefined) return send(400, api.error(400, invalid));
  const reply = replies.shift();
  if (reply === undefined)
    return send(400, api.error(400, 'the test scripted no reply for this request'));
  if (!isFault(reply)) return send(200, api.success(reply, body, requests.length));
  if ('hold' in reply) return;
  if ('malformed' in reply) return send(200, reply.malformed);
  send(reply.status, api.error(reply.status, reply.message), { ...reply.headers });
}

/** A success reply never has these keys: they are the faults'. */
function isFault<Reply extends object>(reply: Reply | ScriptedFault): reply is ScriptedFault {
  return 'hold' in reply || 'malformed' in reply || 'status' in reply;
}
