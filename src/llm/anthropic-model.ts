import Anthropic from '@anthropic-ai/sdk';
import { AureusError } from '../model/errors.js';

/** Asks the model once: a system prompt and one user message in, the reply's text out. */
export type AskModel = (system: string, user: string) => Promise<string>;

export interface AnthropicSettings {
  readonly apiKey: string;
  /** model_provider.base_url; empty for Anthropic's own. */
  readonly baseUrl: string;
  readonly model: string;
  readonly maxTokens: number;
  readonly timeoutMs: number;
}

/**
 * The Messages API through Anthropic's SDK. Two retries on rate limits and server errors (the
 * SDK's own backoff); any other failure is an AureusError that names the setting to check,
 * never the key.
 */
export function anthropicModel(settings: AnthropicSettings): AskModel {
  const client = new Anthropic({
    apiKey: settings.apiKey,
    ...(settings.baseUrl === '' ? {} : { baseURL: settings.baseUrl }),
    timeout: settings.timeoutMs,
    maxRetries: 2,
  });
  return async (system, user) => {
    try {
      const message = await client.messages.create({
        model: settings.model,
        max_tokens: settings.maxTokens,
        system,
        messages: [{ role: 'user', content: user }],
      });
      return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    } catch (error) {
      const status = error instanceof Anthropic.APIError ? ` (HTTP ${error.status ?? 'none'})` : '';
      throw new AureusError(
        `the model did not answer${status}: ${error instanceof Error ? error.message : String(error)}`,
        'check model_provider (model, base_url) in .aureus/policy.yaml and the API key variable it names.',
      );
    }
  };
}
