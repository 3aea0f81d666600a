import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NON_BLOCKING = constants.O_NONBLOCK ?? 0;

export type TextRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string; readonly hint: string };

/**
 * A file's text, opened without following a link or blocking on a FIFO (the path authority
 * checked the path; this holds even if it changed since), refused when not a regular file,
 * larger than `maxBytes`, or binary (a NUL in its first 8000 bytes, as git decides).
 */
export async function readText(path: string, maxBytes: number): Promise<TextRead> {
  const handle = await open(path, constants.O_RDONLY | NO_FOLLOW | NON_BLOCKING);
  try {
    const stats = await handle.stat();
    if (!stats.isFile())
      return { ok: false, error: 'it is not a regular file.', hint: 'read files only.' };
    if (stats.size > maxBytes) {
      return {
        ok: false,
        error: `it holds ${stats.size} bytes, over the ${maxBytes}-byte limit of one read.`,
        hint: 'use search to find the part you need.',
      };
    }
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8000).includes(0)) {
      return {
        ok: false,
        error: 'it is a binary file.',
        hint: 'the builder reads and writes text files only.',
      };
    }
    return { ok: true, text: bytes.toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** Writes text into a file that exists (`replace`) or must not (`create`), never through a link. */
export async function writeText(
  path: string,
  text: string,
  how: 'replace' | 'create',
): Promise<void> {
  const flags =
    how === 'create'
      ? constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW
      : constants.O_WRONLY | constants.O_TRUNC | NO_FOLLOW | NON_BLOCKING;
  const handle = await open(path, flags, 0o644);
  try {
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}
