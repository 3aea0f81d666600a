import type { Refusal } from '../action-gates.js';

/**
 * An action whose input carries a secret the run knows of — whole, in part, reversed or
 * encoded — is refused before anything of it runs: a file, a commit message, a command or a
 * search that holds one can only be a leak the model was talked into (it is only ever shown
 * `[REDACTED]`). Refused rather than scrubbed: a file with the value cut out would still be
 * written, saying something else than the model meant.
 */
export function carriedSecretRefusal(
  input: unknown,
  holdsSecret: (text: string) => boolean,
): Refusal | null {
  if (!textsOf(input).some(holdsSecret)) return null;
  return {
    ok: false,
    refusedBy: 'safety',
    error:
      'this action carries a secret the run knows of (from the environment, git configuration or a credential file), whole, in part or encoded: nothing of it ran.',
    hint: 'never write, commit, run or search for a credential; go on with the task without it.',
  };
}

/** Every string of a tool input, its keys included, as the model sent it. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, each]) => [key, ...textsOf(each)]);
}
