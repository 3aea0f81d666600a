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
