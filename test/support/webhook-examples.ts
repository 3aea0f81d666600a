import { createRequire } from 'node:module';

interface ExampleGroup {
  readonly name: string;
  readonly examples: readonly unknown[];
}

const examples: readonly ExampleGroup[] = createRequire(import.meta.url)(
  '@octokit/webhooks-examples',
);

/**
 * A real webhook payload from @octokit/webhooks-examples: the first example of `event` whose
 * `action` is `action` (or any, for events without actions), deep-copied so tests may edit it.
 */
export function webhookExample(event: string, action?: string): Record<string, unknown> {
  const group = examples.find((candidate) => candidate.name === event);
  const found = group?.examples.find(
    (example) =>
      action === undefined ||
      (typeof example === 'object' &&
        example !== null &&
        Reflect.get(example, 'action') === action),
  );
  if (typeof found !== 'object' || found === null)
    throw new Error(`no example payload for ${event}${action === undefined ? '' : `.${action}`}`);
  return structuredClone(found) as Record<string, unknown>;
}

/** The object at `key` of a payload, to edit it in place for a test case. */
export function objectAt(value: unknown, key: string): object {
  const found: unknown =
    typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
  if (typeof found !== 'object' || found === null) throw new Error(`the payload has no ${key}`);
  return found;
}
