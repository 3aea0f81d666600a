import Anthropic from '@anthropic-ai/sdk';
import type { ConversationBlock, ConversationTurn, ModelReply } from './model-client.js';
import { type Provider, type ProviderSettings, providerFailure } from './provider.js';

const ANTHROPIC_API = 'https://api.anthropic.com';

/**
 * The Messages API with tools through Anthropic's SDK. The SDK retries rate limits, overload and
 * server errors itself (honouring retry-after); what is still failing after that is
 * ProviderUnavailable for the chain; a refusal of the settings is an AureusError naming them.
 */
export function anthropicProvider(settings: ProviderSettings): Provider {
  const client = new Anthropic({
    apiKey: settings.apiKey,
    // Explicit, so the SDK reads nothing more from the environment than the caller resolved.
    authToken: null,
    baseURL: settings.baseUrl === '' ? ANTHROPIC_API : settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: settings.maxRetries,
  });
  return {
    name: settings.name,
    models: settings.models,
    async complete(model, request) {
      try {
        const message = await client.messages.create({
          model,
          max_tokens: request.maxTokens,
          system: request.system,
          messages: request.turns.map(messageOf),
          ...(request.tools.length === 0
            ? {}
            : {
                tools: request.tools.map((tool) => ({
                  name: tool.name,
                  description: tool.description,
                  input_schema: { type: 'object' as const, ...tool.inputSchema },
                })),
              }),
        });
        return replyOf(message, settings.name, model);
      } catch (error) {
        throw failureOf(error, settings);
      }
    },
  };
}

function messageOf(turn: ConversationTurn): Anthropic.MessageParam {
  return { role: turn.role, content: turn.blocks.map(blockParamOf) };
}

function blockParamOf(block: ConversationBlock): Anthropic.ContentBlockParam {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_use':
      // The API takes an object only: a malformed input goes back as an empty one, and the
      // tool's result already told the model what was wrong with it.
      return { type: 'tool_use', id: block.id, name: block.name, input: objectOr(block.input) };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: block.toolUseId,
        content: block.content,
        is_error: block.isError,
      };
  }
}

function objectOr(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : {};
}

function replyOf(message: Anthropic.Message, provider: string, model: string): ModelReply {
  const blocks: ConversationBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use')
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input: block.input });
  }
  return {
    blocks,
    stopReason: stopReasonOf(message.stop_reason),
    usage: {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
    },
    provider,
    model,
  };
}

function stopReasonOf(reason: string | null): ModelReply['stopReason'] {
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'end_turn';
  if (reason === 'tool_use' || reason === 'max_tokens') return reason;
  return 'other';
}

function failureOf(error: unknown, settings: ProviderSettings): Error {
  return providerFailure(error, settings, {
    timedOut: error instanceof Anthropic.APIConnectionTimeoutError,
    status: error instanceof Anthropic.APIError ? error.status : undefined,
  });
}
