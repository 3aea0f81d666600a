import {
  type RecordedRequest,
  type ScriptedFault,
  type ScriptedServer,
  startScriptedServer,
} from './scripted-http-server.js';

export type { ScriptedFault } from './scripted-http-server.js';

export type ScriptedBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      /** Defaults to `toolu_<request>_<block>`. */
      readonly id?: string;
      readonly name: string;
      readonly input: unknown;
    };

export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
}

/**
 * What the next request gets: the text of an assistant message, content blocks (tool calls
 * among them), or a fault. Usage defaults to 100 in and 50 out; the stop reason to tool_use
 * when a block calls a tool, else end_turn.
 */
export type ScriptedReply =
  | { readonly text: string; readonly usage?: ScriptedUsage; readonly stopReason?: string }
  | {
      readonly blocks: readonly ScriptedBlock[];
      readonly usage?: ScriptedUsage;
      readonly stopReason?: string;
    }
  | ScriptedFault;

export interface MessagesBody {
  readonly model?: unknown;
  readonly max_tokens?: unknown;
  readonly system?: unknown;
  readonly tools?: ReadonlyArray<{ readonly name: string }>;
  readonly messages?: ReadonlyArray<{ readonly role: string; readonly content: unknown }>;
}

export type RecordedModelRequest = RecordedRequest<MessagesBody>;
type Success = Exclude<ScriptedReply, ScriptedFault>;
export type ScriptedModelServer = ScriptedServer<Success, MessagesBody>;

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/**
 * A local stand-in for the Messages API (POST /v1/messages), so the real Anthropic SDK runs
 * against it: each request gets the next scripted reply in the API's own JSON shape, or its
 * error shape.
 */
export function startScriptedModelServer(): Promise<ScriptedModelServer> {
  return startScriptedServer<Success, MessagesBody>({
    path: '/v1/messages',
    invalid: (body) =>
      typeof body.model !== 'string' ||
      typeof body.max_tokens !== 'number' ||
      !Array.isArray(body.messages)
        ? 'model, max_tokens and messages are required'
        : undefined,
    error: (status, message) => ({
      type: 'error',
      error: { type: ERROR_TYPES[status] ?? 'api_error', message },
    }),
    success: (reply, body, index) => {
      const blocks: readonly ScriptedBlock[] =
        'text' in reply ? [{ type: 'text', text: reply.text }] : reply.blocks;
      const content = blocks.map((block, at) =>
        block.type === 'text'
          ? block
          : {
              type: 'tool_use',
              id: block.id ?? `toolu_${index}_${at}`,
              name: block.name,
              input: block.input,
            },
      );
      const calls = blocks.some((block) => block.type === 'tool_use');
      const usage = reply.usage ?? { input: 100, output: 50 };
      return {
        id: `msg_${index}`,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: reply.stopReason ?? (calls ? 'tool_use' : 'end_turn'),
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      };
    },
  });
}
