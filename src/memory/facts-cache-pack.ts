import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeCacheFile } from './atomic-write.js';
import { errnoCode } from './errno-code.js';
import { readCacheFile } from './facts-cache-folders.js';
import { claimedKey, decodeEntry } from './facts-cache-format.js';

/**
 * Packs: many entries in one JSON Lines file, each line an entry with its own checksum, so that
 * a whole-repository run reads its facts in a few reads instead of thousands of opens. Every
 * `putMany` writes a new pack (atomically, under a fresh name, so concurrent runs never write the
 * same file); past MAX_PACKS the packs are merged into one.
 */

/** More packs than this are merged: reads stay at a handful of files. */
export const MAX_PACKS = 16;

/** Entry lines by key, from every pack in the folder, unverified (checked on use). */
export interface PackIndex {
  readonly lines: Map<string, string>;
  /** The pack files read, for merging. */
  readonly files: readonly string[];
}

export async function readPacks(packsDir: string): Promise<PackIndex> {
  const lines = new Map<string, string>();
  const read: string[] = [];
  const tried = new Set<string>();
  // A pack that vanished between listing and reading was merged by a concurrent run: list again
  // to pick up the merged pack, or its entries would seem to disappear. Bounded, as merges are.
  for (let attempt = 0; attempt < 3; attempt++) {
    let vanished = false;
    for (const file of await listPacks(packsDir)) {
      if (tried.has(file)) continue;
      tried.add(file);
      const found = await readCacheFile(file);
      if (found.kind === 'missing') vanished = true;
      else if (found.kind === 'link') await rm(file, { force: true });
      else {
        read.push(file);
        indexLines(found.text, lines);
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

function indexLines(text: string, lines: Map<string, string>): void {
  for (const line of text.split('\n')) {
    const key = claimedKey(line);
    if (key !== undefined && !lines.has(key)) lines.set(key, line);
  }
}

/** Writes `lines` (encoded entries) as a new pack. */
export async function writePack(packsDir: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const name = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.jsonl`;
  await writeCacheFile(join(packsDir, name), `${lines.join('\n')}\n`);
}

/**
 * Merges every pack in `index` into one, leaving out lines that fail their checksum, then
 * removes the merged packs. Safe against a concurrent merge: both write complete packs under
 * fresh names, and removing an already removed pack is not an error.
 */
export async function mergePacks(packsDir: string, index: PackIndex): Promise<void> {
  const intact = [...index.lines]
    .filter(([key, line]) => decodeEntry(line, key) !== undefined)
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
