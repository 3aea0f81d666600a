import type { ModelRequest, TokenUsage } from './model-client.js';

/**
 * An upper bound of the input tokens a request can cost: the UTF-8 bytes of all it says. A token
 * holds at least one byte, and the JSON's own syntax outweighs what a chat template adds.
 */
export function inputTokenBound(request: ModelRequest): number {
  return Buffer.byteLength(
    JSON.stringify({ system: request.system, turns: request.turns, tools: request.tools }),
    'utf8',
  );
}

/** The most a request can cost: every byte a token, every reply token used. */
export function worstCaseUsage(request: ModelRequest): TokenUsage {
  return { inputTokens: inputTokenBound(request), outputTokens: request.maxTokens };
}
