import { lstat, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AureusError } from '../model/errors.js';
import { environmentError } from './environment-error.js';
import { errnoCode } from './errno-code.js';
import { fileKind } from './file-kind.js';
import { writeNewOutputFile, writeOutputFile } from './output-file.js';
import { storePaths } from './store-paths.js';

/** `.aureus/decisions/`: the architecture decision records, one `NNNN-<slug>.md` each. */
export function decisionsFolder(root: string): string {
  return join(storePaths(root).dir, 'decisions');
}

/** `.aureus/patterns.json`: the patterns registry `aureus memory patterns --write` writes. */
export function patternsFile(root: string): string {
  return join(storePaths(root).dir, 'patterns.json');
}

/** A decision's number, from its name. */
const NUMBERED = /^(\d{4,9})-[^/]*\.md$/;
/** How a ledger line's hash looks (SHA-256, hexadecimal). */
const LEDGER_HASH = /\b[0-9a-f]{64}\b/g;
/** Decisions are short; a longer file is read this far, which is where an Evidence section is. */
const MAX_DECISION_BYTES = 1 << 20;
const MAX_DECISIONS = 10_000;

/**
 * What `.aureus/decisions/` holds: the highest number among its names and every ledger hash its
 * regular files name. It is read only so that no decision is proposed twice: a checkout decides
 * what it holds, so nothing read here ever changes a verdict, and links are neither followed
 * nor read.
 */
export async function readDecisions(
  root: string,
): Promise<{ highest: number; named: Set<string> }> {
  const folder = decisionsFolder(root);
  const named = new Set<string>();
  if (!(await realFolderOrNothing(root))) return { highest: 0, named };
  const names = await readdir(folder).catch((error: unknown) => {
    throw environmentError(error, { verb: 'read', path: folder }) ?? error;
  });
  if (names.length > MAX_DECISIONS)
    throw new AureusError(
      `${folder} holds ${names.length} entries, more than the ${MAX_DECISIONS} AUREUS reads to number decisions.`,
      'move the old decisions into a folder of their own.',
    );
  let highest = 0;
  for (const name of names) {
    const number = NUMBERED.exec(name)?.[1];
    if (number !== undefined) highest = Math.max(highest, Number(number));
    if (!name.endsWith('.md')) continue;
    for (const hash of await hashesIn(join(folder, name))) named.add(hash);
  }
  return { highest, named };
}

/** The ledger hashes a regular file names (first MiB); nothing for a link or anything else. */
async function hashesIn(path: string): Promise<string[]> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (handle === undefined) return [];
  try {
    // Checked on the open file: a link swapped in after a check would otherwise be read.
    const stats = await handle.stat();
    if (!stats.isFile() || (await lstat(path)).isSymbolicLink()) return [];
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_DECISION_BYTES));
    await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString('utf8').match(LEDGER_HASH) ?? [];
  } finally {
    await handle.close();
  }
}

/**
 * Writes a new decision, atomically, never over an existing file or through a link: false when
 * a file of that name appeared meanwhile.
 */
export async function writeDecision(
  root: string,
  fileName: string,
  text: string,
): Promise<boolean> {
  const folder = decisionsFolder(root);
  if (!NUMBERED.test(fileName) || fileName.includes('..'))
    throw new Error(`not a decision's file name: ${JSON.stringify(fileName)}`);
  await realFolderOrNothing(root);
  return writeNewOutputFile(join(folder, fileName), text, {
    setting: '--write',
    repository: root,
    within: { folder: root, name: 'the repository' },
  });
}

/**
 * Writes `.aureus/patterns.json` atomically, never through a link (the file, `.aureus` or a
 * folder on the way).
 */
export async function writePatternsFile(root: string, text: string): Promise<void> {
  await realFolderOrNothing(root);
  await writeOutputFile(patternsFile(root), text, {
    setting: '--write',
    repository: root,
    within: { folder: root, name: 'the repository' },
  });
}

/**
 * True when `.aureus/decisions/` is a real folder, false when nothing is there; refused when it
 * or `.aureus` is a link or not a folder: the checkout decides where its links lead.
 */
async function realFolderOrNothing(root: string): Promise<boolean> {
  for (const path of [storePaths(root).dir, decisionsFolder(root)]) {
    const stats = await lstat(path).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw environmentError(error, { verb: 'read', path }) ?? error;
    });
    if (stats === undefined) return false;
    if (!stats.isDirectory())
      throw new AureusError(
        `${path} is ${stats.isSymbolicLink() ? 'a symbolic link' : fileKind(stats)}; AUREUS reads and writes its decisions and patterns only in real folders and follows no links.`,
        `replace ${path} with a folder (or delete it and let AUREUS create it).`,
      );
  }
  return true;
}
