import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { errnoCode } from './errno-code.js';
import type { AnchorStore } from './journal.js';
import type { JournalAnchor } from './journal-format.js';

/**
 * A journal's anchor kept beside it (`<name>.anchor.json`), for a writer with no git to keep it
 * in: the App, whose data folder only it writes. A file cut short by a disk or a restore no
 * longer matches its anchor; replaced atomically, so a crash leaves the old or the new one.
 */
export function anchorFilePath(journalPath: string): string {
  return `${journalPath.replace(/\.jsonl$/, '')}.anchor.json`;
}

/** The anchor kept beside `journalPath`, as appendToJournal reads and replaces it. */
export function anchorBeside(journalPath: string): AnchorStore {
  return anchorAt(anchorFilePath(journalPath));
}

/** The anchor kept in the file `anchorPath`, created with its folder on the first write. */
export function anchorAt(anchorPath: string): AnchorStore {
  return {
    read: () => readAnchorAt(anchorPath),
    write: async (anchor) => {
      await mkdir(dirname(anchorPath), { recursive: true });
      await writeFileAtomic(anchorPath, `${JSON.stringify(anchor)}\n`);
    },
  };
}

/** The anchor beside `journalPath`, or null when there is none (or it is not an anchor). */
export function readAnchorFile(journalPath: string): Promise<JournalAnchor | null> {
  return readAnchorAt(anchorFilePath(journalPath));
}

async function readAnchorAt(anchorPath: string): Promise<JournalAnchor | null> {
  let text: string;
  try {
    text = await readFile(anchorPath, 'utf8');
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
