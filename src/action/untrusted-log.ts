import { randomUUID } from 'node:crypto';
import { escapeControls } from '../report/plain-text.js';

/**
 * Prints text that contains untrusted strings (file names, PR titles, diff lines) to the run
 * log with workflow commands switched off around it: a line such as `::add-mask::x` or
 * `::error file=a::pwn` is shown literally and acts on nothing (THREATS row 15). The token that
 * switches them back on is random per call, so the text cannot guess it. The log shows ANSI
 * sequences as a terminal would, so every control character but the line breaks comes escaped
 * (THREATS row 34).
 */
export function logUntrusted(write: (line: string) => void, text: string): void {
  const token = randomUUID();
  const shown = escapeControls(text);
  write(`::stop-commands::${token}\n`);
  write(shown.endsWith('\n') ? shown : `${shown}\n`);
  write(`::${token}::\n`);
}
