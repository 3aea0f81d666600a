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
