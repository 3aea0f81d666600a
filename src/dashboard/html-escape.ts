/**
 * Ledger text (paths, names, reasons) made inert in HTML text and attribute values: every
 * character that could open a tag, an entity or end a quoted attribute becomes an entity.
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * JSON inside a `<script type="application/json">` element: `<` written as `\u003c` so no
 * `</script>` or `<!--` in a ledger string can end the element, and the line separators that
 * older parsers take for line ends escaped too. JSON.parse reads it back unchanged.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}
