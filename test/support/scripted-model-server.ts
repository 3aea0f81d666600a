import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next request gets: the text of an assistant message, or an API error. */
export type ScriptedReply =
  | { readonly text: string }
  | { readonly status: number; readonly message: string };

export interface RecordedModelRequest {
  readonly apiKey: string | undefined;
  readonly body: {
    readonly model?: unknown;
    readonly max_tokens?: unknown;
    readonly system?: unknown;
    readonly messages?: ReadonlyArray<{ readonly role: string; readonly content: unknown }>;
  };
}

export interface ScriptedModelServer {
  /** The base URL to give the SDK (`baseURL`) or model_provider.base_url. */
  readonly url: string;
  /** Queues the replies of the next requests, in order. */
  script(...replies: ScriptedReply[]): void;
  readonly requests: readonly RecordedModelRequest[];
  close(): Promise<void>;
}

/**
 * A local stand-in for the Messages API (POST /v1/messages), so the real Anthropic SDK runs
 * against it: each request gets the next scripted reply in the API's own JSON shape, or its
 * error shape. A request with no reply left, or not shaped as the API wants, is a 400 the test
 * sees as a failure. Nothing leaves 127.0.0.1.
 */
export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  const replies: ScriptedReply[] = [];
  const requests: RecordedModelRequest[] = [];
  const server = createServer((request, response) => {
    void answer(request, response, replies, requests);
  });
  // No idle timeout: a client reusing its pooled socket as Node closes it gets ECONNRESET on a
  // busy machine. close() ends every connection.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    script: (...next) => replies.push(...next),
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  replies: ScriptedReply[],
  requests: RecordedModelRequest[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
    response.end(JSON.stringify(body));
  };
  const error = (status: number, message: string) =>
    send(status, {
      type: 'error',
      error: { type: status === 400 ? 'invalid_request_error' : 'api_error', message },
    });
  if (request.method !== 'POST' || request.url !== '/v1/messages') return error(404, 'not found');
  let body: RecordedModelRequest['body'];
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return error(400, 'the body is not JSON');
  }
  // The SDK sends the key as `Authorization: Bearer` (1.x) or `x-api-key` (older): either counts.
  const header = request.headers['x-api-key'];
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  requests.push({ apiKey: typeof header === 'string' ? header : bearer, body });
  if (
    typeof body.model !== 'string' ||
    typeof body.max_tokens !== 'number' ||
    !Array.isArray(body.messages)
  )
    return error(400, 'model, max_tokens and messages are required');
  const reply = replies.shift();
  if (reply === undefined) return error(400, 'the test scripted no reply for this request');
  if ('status' in reply) return error(reply.status, reply.message);
  send(200, {
    id: `msg_${requests.length}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 50 },
  });
}
