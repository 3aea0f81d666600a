import { AureusError } from '../model/errors.js';
import type { Policy } from '../model/policy.js';
import { anthropicProvider } from './anthropic-provider.js';
import { modelChain } from './model-chain.js';
import type { ModelRole } from './model-client.js';
import { openAiProvider } from './openai-provider.js';
import type { Provider, ProviderSettings } from './provider.js';
import { type MeteredModel, meteredModel, type RunSpend } from './spend.js';

type Kind = 'anthropic' | 'openai-compatible';

/** Each SDK's own conventions, used where the policy names no other. */
const CONVENTIONS: Readonly<Record<Kind, { readonly key: string; readonly baseUrl: string }>> = {
  anthropic: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  'openai-compatible': { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
};

/** The variable a provider's key is read from: the policy's, else the SDK's convention. */
export function apiKeyVariable(kind: Kind, apiKeyEnv: string): string {
  return apiKeyEnv === '' ? CONVENTIONS[kind].key : apiKeyEnv;
}

export interface ModelOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Dollars spent today before this run, from the ledger (memory/model-spend-today). */
  readonly spentTodayUsd: number;
  /** What a resumed run spent before it stopped: it counts toward the run caps. */
  readonly spentBeforeResume?: RunSpend;
  /** The SDK's own retries before a fallback; 2 unless a test wants fewer. */
  readonly maxRetries?: number;
  /** Milliseconds per call; model_provider.timeout_seconds unless a test sets it tiny. */
  readonly timeoutMs?: number;
}

/**
 * The model of a run, as model_provider and cost_thresholds say: the primary provider, then
 * each fallback, behind one breaker; every call metered and held to the caps. Throws an
 * AureusError naming the setting when the provider is none or Anthropic's key is not set.
 */
export function modelFromPolicy(policy: Policy, options: ModelOptions): MeteredModel {
  const config = policy.model_provider;
  if (config.provider === 'none')
    throw new AureusError(
      'model_provider.provider is none: this needs a model.',
      'set model_provider.provider to anthropic or openai-compatible in .aureus/policy.yaml.',
    );
  const timeoutMs = options.timeoutMs ?? config.timeout_seconds * 1000;
  const maxRetries = options.maxRetries ?? 2;
  const entries = [
    { ...config, provider: config.provider, name: config.provider },
    ...config.fallback.map((fallback, index) => ({
      provider: fallback.provider,
      model: fallback.model,
      planning_model: fallback.planning_model ?? '',
      base_url: fallback.base_url ?? '',
      api_key_env: fallback.api_key_env ?? '',
      name: `fallback ${index + 1} (${fallback.provider})`,
    })),
  ];
  const providers: Provider[] = entries.map((entry) => {
    const convention = CONVENTIONS[entry.provider];
    const apiKeyEnv = apiKeyVariable(entry.provider, entry.api_key_env);
    const apiKey = options.env[apiKeyEnv] ?? '';
    // A local OpenAI-compatible server needs no key; Anthropic's API always does.
    if (apiKey === '' && entry.provider === 'anthropic')
      throw new AureusError(
        `${apiKeyEnv} is not set: model_provider (${entry.name}) needs its API key.`,
        `export ${apiKeyEnv}, or name the variable that holds the key in model_provider.api_key_env.`,
      );
    const settings: ProviderSettings = {
      name: entry.name,
      models: {
        planning: entry.planning_model === '' ? entry.model : entry.planning_model,
        building: entry.model,
      },
      apiKey,
      apiKeyEnv,
      baseUrl: entry.base_url === '' ? (options.env[convention.baseUrl] ?? '') : entry.base_url,
      timeoutMs,
      maxRetries,
    };
    return entry.provider === 'anthropic' ? anthropicProvider(settings) : openAiProvider(settings);
  });
  const modelsOf = (role: ModelRole) => providers.map((provider) => provider.models[role]);
  return meteredModel(modelChain(providers, config.breaker_failures), {
    prices: config.prices,
    caps: policy.cost_thresholds,
    spentTodayUsd: options.spentTodayUsd,
    ...(options.spentBeforeResume === undefined
      ? {}
      : { spentBeforeResume: options.spentBeforeResume }),
    models: { planning: modelsOf('planning'), building: modelsOf('building') },
  });
}
