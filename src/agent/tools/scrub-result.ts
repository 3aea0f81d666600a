import type { ConversationBlock } from '../../llm/model-client.js';
import type { Scrub } from '../safety/secret-scrubber.js';
import type { JsonValue, ToolResult } from '../tool-contract.js';

/** A tool's result with every text in it (output, error, hint) passed through the scrubber. */
export function scrubResult(result: ToolResult, scrub: Scrub): ToolResult {
  if (!result.ok) {
    return {
      ...result,
      error: scrub(result.error),
      ...(result.hint === undefined ? {} : { hint: scrub(result.hint) }),
    };
  }
  return { ok: true, output: scrubJson(result.output, scrub) };
}

function scrubJson(value: JsonValue, scrub: Scrub): JsonValue {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((each: JsonValue) => scrubJson(each, scrub));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, each]) => [scrub(key), scrubJson(each, scrub)]),
  );
}

/**
 * The model's own turn as the run sends it back in later requests and summaries: a tool input
 * that carried a secret (refused, but still in the conversation) goes back scrubbed.
 */
export function scrubReply(
  blocks: readonly ConversationBlock[],
  scrub: Scrub,
): ConversationBlock[] {
  return blocks.map((block) => {
    if (block.type === 'text') return { ...block, text: scrub(block.text) };
    if (block.type === 'tool_use') return { ...block, input: scrubInput(block.input, scrub) };
    return block;
  });
}

export function scrubInput(value: unknown, scrub: Scrub): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((each: unknown) => scrubInput(each, scrub));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, each]) => [scrub(key), scrubInput(each, scrub)]),
  );
}
