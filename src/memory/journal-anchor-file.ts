import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errno-code.js';
import type { JournalAnchor } from './journal-format.js';

/**
 * A journal's anchor kept beside it (`<name>.anchor.json`), for a writer with no git to keep it
 * in: the App, whose data folder only it writes. A file cut short by a disk or a restore no
 * longer matches its anchor; replaced atomically, so a crash leaves the old or the new one.
 */
export function anchorFilePath(journalPath: string): string {
  return `${journalPath.replace(/\.jsonl$/, '')}.anchor.json`;
}

export async function writeAnchorFile(journalPath: string, anchor: JournalAnchor): Promise<void> {
  await writeFileAtomic(anchorFilePath(journalPath), `${JSON.stringify(anchor)}\n`);
}

/** The anchor beside `journalPath`, or null when there is none (or it is not an anchor). */
export async function readAnchorFile(journalPath: string): Promise<JournalAnchor | null> {
  let text: string;
  try {
    text = await readFile(anchorFilePath(journalPath), 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  return parseAnchor(text);
}

/** `{"lines":…,"hash":…}`, or null. */
export function parseAnchor(text: string): JournalAnchor | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    if (!('lines' in value) || !('hash' in value)) return null;
    const { lines, hash } = value;
    return typeof lines === 'number' && typeof hash === 'string' ? { lines, hash } : null;
  } catch {
    return null;
  }
}
