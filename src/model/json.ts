/** A value that survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object: the shape of every record AUREUS stores. */
export type JsonObject = { [key: string]: JsonValue };

/** A non-null object that is not an array: what a parsed JSON object is, before its keys are checked. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object JSON.parse made: its values are JSON values, so only its kind needs checking. */
export function isParsedJsonObject(value: unknown): value is JsonObject {
  return isRecord(value);
}

/** A record, or an empty one where `value` is none: parsed data read without a check at each use. */
export function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** What lies at `keys` down nested records; undefined where one is missing or not a record. */
export function field(value: unknown, ...keys: readonly string[]): unknown {
  return keys.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
}

/** The strings of an array; none where `value` is not one. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}
