import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeCacheFile } from './atomic-write.js';
import { readCacheBytes } from './cache-files.js';
import { errnoCode } from './errno-code.js';
import { decodeEntry } from './facts-cache-format.js';

/**
 * Packs: many entries in one JSON Lines file, each line an entry with its own checksum, so that
 * a whole-repository run reads its facts in a few reads instead of thousands of opens. Every
 * `putMany` writes a new pack (atomically, under a fresh name, so concurrent runs never write the
 * same file); past MAX_PACKS the packs are merged into one.
 */

/** More packs than this are merged: reads stay at a handful of files. */
export const MAX_PACKS = 16;

/**
 * Entry lines by key, from every pack in the folder, unverified (checked on use) and undecoded:
 * each line is decoded from UTF-8 when used (see readCacheBytes).
 */
export interface PackIndex {
  readonly lines: Map<string, Buffer>;
  /** The pack files read, for merging. */
  readonly files: readonly string[];
}

export async function readPacks(packsDir: string): Promise<PackIndex> {
  const lines = new Map<string, Buffer>();
  const read: string[] = [];
  const tried = new Set<string>();
  // A pack that vanished between listing and reading was merged by a concurrent run: list again
  // to pick up the merged pack, or its entries would seem to disappear. Bounded, as merges are.
  for (let attempt = 0; attempt < 3; attempt++) {
    let vanished = false;
    for (const file of await listPacks(packsDir)) {
      if (tried.has(file)) continue;
      tried.add(file);
      const found = await readCacheBytes(file);
      if (found.kind === 'missing') vanished = true;
      else if (found.kind === 'refused') await rm(file, { force: true });
      else {
        read.push(file);
        indexLines(found.bytes, lines);
      }
    }
    if (!vanished) break;
  }
  return { lines, files: read };
}

async function listPacks(packsDir: string): Promise<string[]> {
  return (await readdir(packsDir))
    .filter((name) => name.endsWith('.jsonl') && !name.startsWith('.'))
    .sort()
    .map((name) => join(packsDir, name));
}

const NEWLINE = 0x0a;
const QUOTE = 0x22;
/** What every entry line starts with: `{"key":"`. */
const KEY_START = Buffer.from('{"key":"');

/** Each line under the key it claims, the first line for a key winning (as Map order goes). */
function indexLines(bytes: Buffer, lines: Map<string, Buffer>): void {
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline;
    const line = bytes.subarray(start, end);
    start = end + 1;
    if (line.compare(KEY_START, 0, KEY_START.length, 0, KEY_START.length) !== 0) continue;
    const keyEnd = line.indexOf(QUOTE, KEY_START.length);
    if (keyEnd === -1) continue;
    // Keys are ASCII; bytes that are not cannot match one, whatever they decode to.
    const key = line.toString('latin1', KEY_START.length, keyEnd);
    if (!lines.has(key)) lines.set(key, line);
  }
}

/** Writes `lines` (encoded entries, as the index holds them) as a new pack. */
export async function writePack(packsDir: string, lines: readonly Buffer[]): Promise<void> {
  if (lines.length === 0) return;
  const name = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.jsonl`;
  const newline = Buffer.from('\n');
  await writeCacheFile(
    join(packsDir, name),
    Buffer.concat(lines.flatMap((line) => [line, newline])),
  );
}

/**
 * Merges every pack in `index` into one, leaving out lines that fail their checksum, then
 * removes the merged packs. Safe against a concurrent merge: both write complete packs under
 * fresh names, and removing an already removed pack is not an error.
 */
export async function mergePacks(packsDir: string, index: PackIndex): Promise<void> {
  const intact = [...index.lines]
    .filter(([key, line]) => decodeEntry(line.toString('utf8'), key) !== undefined)
    .map(([, line]) => line);
  await writePack(packsDir, intact);
  for (const file of index.files) {
    try {
      await rm(file);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
  }
}
