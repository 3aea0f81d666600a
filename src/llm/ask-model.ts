import { anthropicProvider } from './anthropic-provider.js';
import { modelChain } from './model-chain.js';
import type { ModelClient, ModelRole } from './model-client.js';

/** Asks the model once: a system prompt and one user message in, the reply's text out. */
export type AskModel = (system: string, user: string) => Promise<string>;

/** One question, no tools, through any ModelClient (its chain, its spend accounting and caps). */
export function askModel(client: ModelClient, role: ModelRole, maxTokens: number): AskModel {
  return async (system, user) => {
    const reply = await client.complete(role, {
      system,
      turns: [{ role: 'user', blocks: [{ type: 'text', text: user }] }],
      tools: [],
      maxTokens,
    });
    return reply.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
  };
}

export interface AnthropicSettings {
  readonly apiKey: string;
  /** model_provider.base_url; empty for Anthropic's own. */
  readonly baseUrl: string;
  readonly model: string;
  readonly maxTokens: number;
  readonly timeoutMs: number;
}

/**
 * The Messages API alone, unmetered: two retries on rate limits and server errors (the SDK's
 * own backoff); any other failure is an AureusError that names the setting to check, never the key.
 */
export function anthropicModel(settings: AnthropicSettings): AskModel {
  const provider = anthropicProvider({
    name: 'anthropic',
    models: { planning: settings.model, building: settings.model },
    apiKey: settings.apiKey,
    apiKeyEnv: 'the API key variable',
    baseUrl: settings.baseUrl,
    timeoutMs: settings.timeoutMs,
    maxRetries: 2,
  });
  return askModel(modelChain([provider], 1), 'building', settings.maxTokens);
}
