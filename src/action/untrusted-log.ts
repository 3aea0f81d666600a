import { randomUUID } from 'node:crypto';

/**
 * Prints text that contains untrusted strings (file names, PR titles, diff lines) to the run
 * log with workflow commands switched off around it: a line such as `::add-mask::x` or
 * `::error file=a::pwn` is shown literally and acts on nothing (THREATS row 15). The token that
 * switches them back on is random per call, so the text cannot guess it.
 */
export function logUntrusted(write: (line: string) => void, text: string): void {
  const token = randomUUID();
  write(`::stop-commands::${token}\n`);
  write(text.endsWith('\n') ? text : `${text}\n`);
  write(`::${token}::\n`);
}
