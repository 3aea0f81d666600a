/** Byte sizes as GitHub counts them: comment and summary limits are in UTF-8 bytes, not characters. */
const encoder = new TextEncoder();

export function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The leading lines whose UTF-8 size, newline after each included, stays within `maxBytes`. */
export function linesWithin(lines: readonly string[], maxBytes: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    used += utf8Bytes(line) + 1;
    if (used > maxBytes) break;
    kept.push(line);
  }
  return kept;
}
