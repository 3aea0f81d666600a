import { randomBytes } from 'node:crypto';

/**
 * Unique random values planted where a builder run could reach a secret (its environment, its
 * home folder's credential files, the repository, git's configuration). Base62 and no published
 * token format, so only AUREUS's knowledge of the value, never a token pattern, can hide it.
 */
export type Canaries = Readonly<Record<string, string>>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function canary(): string {
  return [...randomBytes(40)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

export function makeCanaries(names: readonly string[]): Canaries {
  return Object.fromEntries(names.map((name) => [name, canary()]));
}

/** The shortest slice of a canary that counts as a leak (a split across two writes). */
const SLICE = 8;
/** Encoded forms are matched on slices this long: a hex or base64 half of a canary. */
const ENCODED_SLICE = 16;

/**
 * Every form of `value` a leak could take: itself, reversed, hex, base64 and base64url at the
 * three alignments a value can have inside a larger encoded text, URL-encoded — each as its
 * slices, so a value split across two places, or cut short, is found too.
 */
function leakForms(value: string): { readonly form: string; readonly slice: number }[] {
  const bytes = Buffer.from(value, 'utf8');
  const plain = [value, [...value].reverse().join('')];
  const encoded = [bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
  for (const encoding of ['base64', 'base64url'] as const)
    for (const offset of [0, 1, 2]) {
      const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding);
      encoded.push(
        text.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6)),
      );
    }
  return [
    ...plain.map((form) => ({ form, slice: SLICE })),
    ...encoded.map((form) => ({ form, slice: ENCODED_SLICE })),
  ];
}

/**
 * Which canaries `text` holds in any form (see leakForms), as `name (form)` lines to read in a
 * failing assertion; empty when none.
 */
export function leaksIn(text: string, canaries: Canaries): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(canaries)) {
    for (const { form, slice } of leakForms(value)) {
      for (let start = 0; start + slice <= form.length; start++) {
        const piece = form.slice(start, start + slice);
        const at = text.indexOf(piece);
        if (at < 0) continue;
        found.push(`${name}: "${piece}" at ${at}: …${text.slice(Math.max(0, at - 60), at)}`);
        break;
      }
    }
  }
  return found;
}
