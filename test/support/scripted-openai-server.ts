import {
  type RecordedRequest,
  type ScriptedFault,
  type ScriptedServer,
  startScriptedServer,
} from './scripted-http-server.js';

export interface ScriptedToolCall {
  /** Defaults to `call_<request>_<index>`. */
  readonly id?: string;
  readonly name: string;
  /** An object is sent as its JSON; a string as it is (a model's malformed arguments). */
  readonly arguments: unknown;
}

/**
 * What the next request gets: an assistant message (text, tool calls or both) or a fault. Usage
 * defaults to 100 prompt and 50 completion tokens, `null` leaves it out (some servers do); the
 * finish reason to tool_calls when there are calls, else stop.
 */
export type ScriptedChatReply =
  | {
      readonly text?: string;
      readonly toolCalls?: readonly ScriptedToolCall[];
      readonly usage?: { readonly input: number; readonly output: number } | null;
      readonly finishReason?: string;
    }
  | ScriptedFault;

export interface ChatBody {
  readonly model?: unknown;
  readonly max_tokens?: unknown;
  readonly tools?: ReadonlyArray<{ readonly type: string; readonly function: { name: string } }>;
  readonly messages?: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

type Success = Exclude<ScriptedChatReply, ScriptedFault>;
export type RecordedChatRequest = RecordedRequest<ChatBody>;
export type ScriptedOpenAiServer = ScriptedServer<Success, ChatBody>;

/**
 * A local stand-in for an OpenAI-compatible server (Ollama, vLLM, llama.cpp server, OpenAI):
 * POST /v1/chat/completions answered in the API's JSON shape or its error shape. Give the
 * client `${url}/v1` as its base URL.
 */
export function startScriptedOpenAiServer(): Promise<ScriptedOpenAiServer> {
  return startScriptedServer<Success, ChatBody>({
    path: '/v1/chat/completions',
    invalid: (body) =>
      typeof body.model !== 'string' || !Array.isArray(body.messages)
        ? 'model and messages are required'
        : undefined,
    error: (status, message) => ({
      error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'api_error', code: null },
    }),
    success: (reply, body, index) => {
      const calls = (reply.toolCalls ?? []).map((call, at) => ({
        id: call.id ?? `call_${index}_${at}`,
        type: 'function',
        function: {
          name: call.name,
          arguments:
            typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
        },
      }));
      const usage = reply.usage === undefined ? { input: 100, output: 50 } : reply.usage;
      return {
        id: `chatcmpl-${index}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: reply.text ?? null,
              ...(calls.length === 0 ? {} : { tool_calls: calls }),
            },
            finish_reason: reply.finishReason ?? (calls.length === 0 ? 'stop' : 'tool_calls'),
          },
        ],
        ...(usage === null
          ? {}
          : {
              usage: {
                prompt_tokens: usage.input,
                completion_tokens: usage.output,
                total_tokens: usage.input + usage.output,
              },
            }),
      };
    },
  });
}
