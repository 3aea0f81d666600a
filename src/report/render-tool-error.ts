import { ledgerMarker } from './render-markdown.js';

export const TOOL_ERROR_TITLE = 'AUREUS could not decide';

/**
 * The sticky comment and check summary for a run that ended in a tool error: said plainly, and
 * never mistakable for a pass. `message` must already be safe to show (no secrets, no stack);
 * it is put in a code block, so Markdown or mentions in it are shown, not rendered.
 */
export function renderToolError(message: string): string {
  return [
    ledgerMarker(),
    `## ${TOOL_ERROR_TITLE}`,
    '',
    'The change was **not** judged, so this is not a pass.',
    '',
    '```text',
    message.replace(/```/g, "'''"),
    '```',
  ].join('\n');
}
