/**
 * The parts of known secrets: a value split across two writes, printed with its first
 * characters cut (`cut -c8-`), or encoded a half at a time never matches the whole value, so a
 * long secret is also looked for by its slices: every 8 characters of it (or of it reversed),
 * every 16 of its hex and base64 forms. Random tokens share no such slice with ordinary text.
 */
export interface SecretSlices {
  /** Adds the slices of a value's plain forms (itself, reversed) and its encoded forms. */
  add(plain: readonly string[], encoded: readonly string[]): void;
  /** The ranges of `text` that slices cover, merged, in order. */
  covered(text: string): Array<readonly [number, number]>;
}

const PLAIN_SLICE = 8;
const ENCODED_SLICE = 16;

/**
 * Values looked for in part: 16 characters or more (so one half of any split is a slice), all
 * of them token characters, not starting as a path does. A URL, a path or a sentence held in a
 * secret-named variable (`ACTIONS_ID_TOKEN_REQUEST_URL`, `SSH_AUTH_SOCK`) would otherwise
 * remove `https://` or `/tmp/` from every text; those are still removed whole.
 */
export function partsAreSecret(value: string): boolean {
  return /^[A-Za-z0-9_~+=-][A-Za-z0-9_.~+/=-]{15,}$/.test(value);
}

export function secretSlices(): SecretSlices {
  const plainSlices = new Set<string>();
  const encodedSlices = new Set<string>();
  const addAll = (into: Set<string>, form: string, size: number) => {
    for (let start = 0; start + size <= form.length; start++)
      into.add(form.slice(start, start + size));
  };
  return {
    add(plain, encoded) {
      for (const form of plain) addAll(plainSlices, form, PLAIN_SLICE);
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
