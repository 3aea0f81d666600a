import OpenAI from 'openai';
import type { ConversationBlock, ConversationTurn, ModelReply } from './model-client.js';
import {
  type Provider,
  type ProviderSettings,
  ProviderUnavailable,
  providerFailure,
} from './provider.js';
import { worstCaseUsage } from './request-size.js';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const OPENAI_API = 'https://api.openai.com/v1';
/** Local servers (Ollama, llama.cpp) take no key, but the SDK wants one: this one says so. */
const NO_KEY = 'no-key';

/**
 * Chat completions with tools through the official `openai` SDK, for OpenAI and the servers
 * that speak its API (Ollama, vLLM, llama.cpp server). Failures sort as for Anthropic: the SDK
 * retries first; then unavailable (the chain's next provider) or a settings error.
 */
export function openAiProvider(settings: ProviderSettings): Provider {
  const client = new OpenAI({
    apiKey: settings.apiKey === '' ? NO_KEY : settings.apiKey,
    // Explicit, so the SDK reads nothing more from the environment than the caller resolved.
    organization: null,
    project: null,
    adminAPIKey: null,
    baseURL: settings.baseUrl === '' ? OPENAI_API : settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
  return {
    name: settings.name,
    models: settings.models,
    async complete(model, request) {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create({
          model,
          // max_tokens, not max_completion_tokens: the local servers read this one.
          max_tokens: request.maxTokens,
          messages: [
            { role: 'system', content: request.system },
            ...request.turns.flatMap(messagesOf),
          ],
          ...(request.tools.length === 0
            ? {}
            : {
                tools: request.tools.map((tool) => ({
                  type: 'function' as const,
                  function: {
                    name: tool.name,
                    description: tool.description,
                    parameters: { type: 'object', ...tool.inputSchema },
                  },
                })),
              }),
        });
      } catch (error) {
        throw failureOf(error, settings);
      }
      const [choice] = completion.choices;
      if (choice === undefined)
        throw new ProviderUnavailable(settings.name, 'the reply holds no choice');
      return {
        blocks: blocksOf(choice.message),
        stopReason: stopReasonOf(choice.finish_reason),
        // A server that does not say what it used is charged the most the call could cost.
        usage:
          completion.usage === undefined
            ? worstCaseUsage(request)
            : {
                inputTokens: completion.usage.prompt_tokens,
                outputTokens: completion.usage.completion_tokens,
              },
        provider: settings.name,
        model,
      };
    },
  };
}

/** One turn as chat messages: tool results first (they answer the calls just before), then text. */
function messagesOf(turn: ConversationTurn): Message[] {
  const text = turn.blocks
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((part) => part !== '')
    .join('\n');
  if (turn.role === 'assistant') {
    const calls = turn.blocks.flatMap((block) =>
      block.type === 'tool_use'
        ? [
            {
              id: block.id,
              type: 'function' as const,
              function: {
                name: block.name,
                arguments:
                  typeof block.input === 'string' ? block.input : JSON.stringify(block.input ?? {}),
              },
            },
          ]
        : [],
    );
    return [
      {
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      },
    ];
  }
  const results: Message[] = turn.blocks.flatMap((block) =>
    block.type === 'tool_result'
      ? [{ role: 'tool' as const, tool_call_id: block.toolUseId, content: block.content }]
      : [],
  );
  return text === '' ? results : [...results, { role: 'user', content: text }];
}

function blocksOf(message: OpenAI.Chat.Completions.ChatCompletionMessage): ConversationBlock[] {
  const blocks: ConversationBlock[] = [];
  if (message.content !== null && message.content !== '')
    blocks.push({ type: 'text', text: message.content });
  for (const call of message.tool_calls ?? [])
    if (call.type === 'function')
      blocks.push({
        type: 'tool_use',
        id: call.id,
        name: call.function.name,
        input: parsedOr(call.function.arguments),
      });
  return blocks;
}

/** Arguments as JSON when they are; as the model wrote them when not, for the tool to refuse. */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function stopReasonOf(reason: string | null): ModelReply['stopReason'] {
  if (reason === 'stop') return 'end_turn';
  if (reason === 'tool_calls') return 'tool_use';
  if (reason === 'length') return 'max_tokens';
  return 'other';
}

function failureOf(error: unknown, settings: ProviderSettings): Error {
  return providerFailure(error, settings, {
    timedOut: error instanceof OpenAI.APIConnectionTimeoutError,
    status: error instanceof OpenAI.APIError ? error.status : undefined,
  });
}
