import { AureusError } from '../model/errors.js';
import type { ModelClient, ModelReply } from './model-client.js';
import { type Provider, ProviderUnavailable } from './provider.js';

/**
 * Providers in order, primary first: a call goes to the first whose breaker is closed; when it
 * is unavailable (after its SDK's own retries) the next gets the same call. A refusal of the
 * settings (a bad key, an unknown model) stops the chain: another provider would not fix the
 * user's settings, and would spend their money finding out.
 *
 * The breaker: after `breakerFailures` consecutive failures a provider is skipped for the rest
 * of the run (the client's lifetime), so a dead endpoint costs its timeout a bounded number of
 * times, not once per call.
 */
export function modelChain(providers: readonly Provider[], breakerFailures: number): ModelClient {
  if (providers.length === 0)
    throw new AureusError(
      'no model provider is configured.',
      'set model_provider.provider in .aureus/policy.yaml.',
    );
  const failures = new Map<Provider, number>();
  return {
    async complete(role, request): Promise<ModelReply> {
      const reasons: string[] = [];
      for (const provider of providers) {
        const failed = failures.get(provider) ?? 0;
        if (failed >= breakerFailures) {
          reasons.push(`${provider.name}: skipped after ${failed} consecutive failures`);
          continue;
        }
        try {
          const reply = await provider.complete(provider.models[role], request);
          failures.set(provider, 0);
          return reply;
        } catch (error) {
          if (!(error instanceof ProviderUnavailable)) throw error;
          failures.set(provider, failed + 1);
          reasons.push(error.message);
        }
      }
      throw new AureusError(
        `no model provider answered the ${role} call: ${reasons.join('; ')}.`,
        'check that the providers are reachable (model_provider.base_url, model_provider.fallback) and try again later.',
      );
    },
  };
}
