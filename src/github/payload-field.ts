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

/**
 * A payload lacks a field AUREUS uses, or has it in another shape. The message names the field
 * and is for the log; whoever sent the payload is answered with a fixed text.
 */
export class PayloadShapeError extends Error {
  constructor(path: string, expected: string) {
    super(`${path} is not ${expected}`);
    this.name = 'PayloadShapeError';
  }
}

/** Reads the value at `path` as a `T`, or throws PayloadShapeError. */
export type FieldReader<T> = (value: unknown, path: string) => T;

export const text: FieldReader<string> = (value, path) => {
  if (typeof value !== 'string') throw new PayloadShapeError(path, 'a string');
  return value;
};

export const positiveInteger: FieldReader<number> = (value, path) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new PayloadShapeError(path, 'a positive integer');
  return value;
};

export const flag: FieldReader<boolean> = (value, path) => {
  if (typeof value !== 'boolean') throw new PayloadShapeError(path, 'true or false');
  return value;
};

/** A commit id: SHA-1, or SHA-256 for repositories that use it. */
export const commitSha: FieldReader<string> = (value, path) => {
  if (typeof value !== 'string' || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(value))
    throw new PayloadShapeError(path, 'a commit sha');
  return value;
};

/** A field GitHub leaves out or sets to null: both read as null. */
export function nullable<T>(reader: FieldReader<T>): FieldReader<T | null> {
  return (value, path) => (value === undefined || value === null ? null : reader(value, path));
}

/** An object with these fields (others are ignored), each read by its reader. */
export function object<Fields extends Readonly<Record<string, FieldReader<unknown>>>>(
  fields: Fields,
): FieldReader<{ readonly [Key in keyof Fields]: ReturnType<Fields[Key]> }> {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new PayloadShapeError(path, 'an object');
    const read: Record<string, unknown> = {};
    for (const [key, reader] of Object.entries(fields))
      read[key] = reader(payloadField(value, key), `${path}.${key}`);
    // Every key of `fields` was just read by its own reader: the mapped type holds, though
    // TypeScript cannot follow a loop that builds it.
    return read as { readonly [Key in keyof Fields]: ReturnType<Fields[Key]> };
  };
}
