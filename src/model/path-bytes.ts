/**
 * A path as git stores it is bytes, not necessarily UTF-8. AUREUS keys files, findings and
 * baselines by path strings, so the string must keep every byte: decoding lossily (each bad
 * byte to U+FFFD) would make `x\xfe.ts` and `x\xff.ts` one file, and a new finding in one read
 * as the baseline of the other.
 *
 * The scheme is Python's `surrogateescape`: valid UTF-8 decodes as usual, and each byte that is
 * not part of a valid sequence (0x80–0xFF) becomes the lone surrogate U+DC80–U+DCFF. No valid
 * UTF-8 decodes to a surrogate, so distinct bytes give distinct strings, and pathToBytes gives
 * the bytes back. Paths that are valid UTF-8 (nearly all) are exactly what a plain decoding
 * gives. Lone surrogates never leave AUREUS raw: JSON writes them as `\udcfe`, and the
 * renderers show them as `\xFE` (report/plain-text.ts).
 */

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Lone surrogates that stand for one byte each: U+DC80 is 0x80, U+DCFF is 0xFF. */
const ESCAPED_BYTE = /[\uDC80-\uDCFF]/;
const ESCAPE_BASE = 0xdc00;

/** The path's bytes as a string, every byte kept (see above). */
export function pathFromBytes(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decodeEscaping(bytes);
  }
}

/**
 * The bytes as text when they are all UTF-8, else undefined. Then a `-z` listing of many paths
 * (git's separators are ASCII) decodes once, each path just as pathFromBytes decodes it.
 */
export function utf8TextOrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The bytes pathFromBytes read this string from; plain UTF-8 for any other string. */
export function pathToBytes(path: string): Buffer {
  if (!ESCAPED_BYTE.test(path)) return Buffer.from(path, 'utf8');
  const parts: Buffer[] = [];
  for (const char of path) {
    const unit = char.charCodeAt(0);
    parts.push(
      char.length === 1 && ESCAPED_BYTE.test(char)
        ? Buffer.of(unit - ESCAPE_BASE)
        : Buffer.from(char, 'utf8'),
    );
  }
  return Buffer.concat(parts);
}

/** Whether the path holds bytes that are not UTF-8 (escaped by pathFromBytes). */
export function hasEscapedBytes(path: string): boolean {
  return ESCAPED_BYTE.test(path);
}

function decodeEscaping(bytes: Uint8Array): string {
  let text = '';
  let index = 0;
  while (index < bytes.length) {
    const length = sequenceLength(bytes, index);
    if (length === 0) {
      text += String.fromCharCode(ESCAPE_BASE + (bytes[index] ?? 0));
      index += 1;
    } else {
      text += strictUtf8.decode(bytes.subarray(index, index + length));
      index += length;
    }
  }
  return text;
}

/**
 * The length of the valid UTF-8 sequence starting at `at`, or 0 when the byte there starts
 * none: the well-formed sequences of the Unicode standard (table 3-7), so no overlong form,
 * no surrogate and nothing past U+10FFFF.
 */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at] ?? 0;
  if (lead < 0x80) return 1;
  const [length, low, high] = leadRange(lead);
  if (length === 0) return 0;
  for (let offset = 1; offset < length; offset += 1) {
    const byte = bytes[at + offset];
    const [min, max] = offset === 1 ? [low, high] : [0x80, 0xbf];
    if (byte === undefined || byte < min || byte > max) return 0;
  }
  return length;
}

/** A lead byte's sequence length and the range its second byte must fall in. */
function leadRange(lead: number): readonly [number, number, number] {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return [0, 0, 0];
}
