/**
 * The parts of known secrets: a value split across two writes, printed with its first
 * characters cut (`cut -c8-`), or encoded a half at a time never matches the whole value, so a
 * long secret is also looked for by its slices: every 8 characters of it (or of it reversed),
 * every 16 of its hex and base64 forms. Random tokens share no such slice with ordinary text; a
 * password of words may, and such text is then removed too (the safe side).
 */
export interface SecretSlices {
  /**
   * Adds the slices of a value's plain forms (itself, reversed) and its encoded forms, save
   * the plain slices found within one of `shared` (the forms of its public part).
   */
  add(plain: readonly string[], encoded: readonly string[], shared?: readonly string[]): void;
  /** The ranges of `text` that slices cover, merged, in order. */
  covered(text: string): Array<readonly [number, number]>;
}

const PLAIN_SLICE = 8;
const ENCODED_SLICE = 16;

/**
 * Values looked for in part: 16 characters or more (so one half of any split is a slice),
 * whatever their characters (`P@ss!word#2024-long-and-secret` too), save a path: a path held in a
 * variable (`SSH_AUTH_SOCK`, a tool's home) names a place, and its slices (`/home/ru`, `/usr/lib`)
 * are in every path the run prints; it is still removed whole.
 */
export function partsAreSecret(value: string): boolean {
  return value.length >= 16 && !/^(?:\/|~\/|\.\.?\/)\S*$/.test(value);
}

/**
 * A URL's scheme, and its host up to the path (`https://hooks.slack.com/`) when no credential
 * comes first: it says where the secret goes, not what it is, and its slices (`https://`) are in
 * every URL. The slices of a value that lie wholly within it are not looked for.
 */
export function publicPartOf(value: string): string {
  return /^[a-z][a-z0-9+.-]{0,30}:\/\/(?:[^/?#@\s]*(?:[/?#]|$))?/i.exec(value)?.[0] ?? '';
}

export function secretSlices(): SecretSlices {
  const plainSlices = new Set<string>();
  const encodedSlices = new Set<string>();
  const addAll = (
    into: Set<string>,
    form: string,
    size: number,
    shared: readonly string[] = [],
  ) => {
    for (let start = 0; start + size <= form.length; start++) {
      const slice = form.slice(start, start + size);
      if (!shared.some((part) => part.includes(slice))) into.add(slice);
    }
  };
  return {
    add(plain, encoded, shared = []) {
      for (const form of plain) addAll(plainSlices, form, PLAIN_SLICE, shared);
      for (const form of encoded) addAll(encodedSlices, form, ENCODED_SLICE);
    },
    covered(text) {
      if (plainSlices.size === 0 && encodedSlices.size === 0) return [];
      const ranges: Array<[number, number]> = [];
      const cover = (start: number, end: number) => {
        const last = ranges.at(-1);
        if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
        else ranges.push([start, end]);
      };
      for (let start = 0; start + PLAIN_SLICE <= text.length; start++) {
        if (plainSlices.has(text.slice(start, start + PLAIN_SLICE)))
          cover(start, start + PLAIN_SLICE);
        if (
          start + ENCODED_SLICE <= text.length &&
          encodedSlices.has(text.slice(start, start + ENCODED_SLICE))
        )
          cover(start, start + ENCODED_SLICE);
      }
      return ranges;
    },
  };
}
