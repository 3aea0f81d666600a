/**
 * Keeps a text within `maxBytes` of UTF-8: its head and its tail, with a marker saying how
 * many bytes of the middle were left out (what a model needs most is usually at either end).
 */
export function truncateText(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  const half = Math.max(0, Math.floor(maxBytes / 2));
  const head = bytes
    .subarray(0, half)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const tail = bytes
    .subarray(bytes.length - half)
    .toString('utf8')
    .replace(/^\uFFFD/, '');
  const omitted = bytes.length - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}…[${omitted} bytes omitted]…${tail}`;
}
