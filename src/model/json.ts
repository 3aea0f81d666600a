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
