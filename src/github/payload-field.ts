/**
 * One field of a webhook or workflow-event payload, read as data: own properties only, so
 * nothing inherited from Object.prototype (`constructor`, `__proto__`) is ever taken for part
 * of the payload. Callers check the type of what they get.
 */
export function payloadField(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const found: unknown = Object.getOwnPropertyDescriptor(value, key)?.value;
  return found;
}
