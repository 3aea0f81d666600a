import { AureusError } from '../model/errors.js';
import type { ModelReply, ModelRequest, ModelRole } from './model-client.js';

/** One provider of a chain: an SDK, its endpoint and key, and the model it runs for each role. */
export interface Provider {
  /** Names it in errors, the breaker and the trajectory, e.g. `anthropic` or `fallback 1 (openai-compatible)`. */
  readonly name: string;
  readonly models: Readonly<Record<ModelRole, string>>;
  complete(model: string, request: ModelRequest): Promise<ModelReply>;
}

/** How to reach a provider: what the policy and the environment say, resolved. */
export interface ProviderSettings {
  readonly name: string;
  readonly models: Readonly<Record<ModelRole, string>>;
  /** Empty when the provider needs none (a local server). */
  readonly apiKey: string;
  /** The variable the key came from: errors name it, never the key. */
  readonly apiKeyEnv: string;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** The SDK's own retries (with its backoff, honouring retry-after) before a fallback. */
  readonly maxRetries: number;
}

/**
 * The provider did not answer in a way worth waiting for (rate limit after the SDK's retries,
 * overload, a server error, a timeout, a broken connection or body): the chain tries the next.
 * Its own message says which, for when no provider is left.
 */
export class ProviderUnavailable extends AureusError {
  constructor(provider: string, why: string) {
    super(
      `the model provider ${provider} did not answer: ${why}`,
      'check that the provider is reachable (model_provider.base_url), or add a fallback (model_provider.fallback).',
    );
    this.name = 'ProviderUnavailable';
  }
}

/** Statuses a later call may not see: a fallback is worth trying. The rest are the user's settings. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * What an SDK's error means for the chain, once the SDK has done its own retries: a timeout, a
 * transient status, a broken connection or a body that is not JSON are ProviderUnavailable; any
 * other status is the user's settings.
 */
export function providerFailure(
  error: unknown,
  settings: ProviderSettings,
  sdk: { readonly timedOut: boolean; readonly status: number | undefined },
): Error {
  const said = redact(error instanceof Error ? error.message : String(error), settings.apiKey);
  if (sdk.timedOut)
    return new ProviderUnavailable(settings.name, `no answer within ${settings.timeoutMs} ms`);
  if (sdk.status === undefined || isTransientStatus(sdk.status))
    return new ProviderUnavailable(
      settings.name,
      sdk.status === undefined ? said : `HTTP ${sdk.status}: ${said}`,
    );
  return settingsError(settings, sdk.status, said);
}

/**
 * The error for an HTTP status that retrying cannot fix: a refused key names the variable that
 * holds it; any other refusal names the model settings. The key itself is never in it.
 */
function settingsError(settings: ProviderSettings, status: number, detail: string): AureusError {
  const said = redact(detail, settings.apiKey);
  if (status === 401 || status === 403)
    return new AureusError(
      `the model provider ${settings.name} refused the key in ${settings.apiKeyEnv} (HTTP ${status}): ${said}`,
      `set ${settings.apiKeyEnv} to a valid key for ${settings.baseUrl}, or name another variable in model_provider.api_key_env.`,
    );
  return new AureusError(
    `the model provider ${settings.name} refused the request (HTTP ${status}): ${said}`,
    'check model_provider (model, planning_model, max_tokens, base_url) in .aureus/policy.yaml.',
  );
}

/** A provider's text with the key taken out, wherever a server chose to echo it. */
function redact(text: string, apiKey: string): string {
  return apiKey.length < 4 ? text : text.split(apiKey).join('[key redacted]');
}
