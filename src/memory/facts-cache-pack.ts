import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeCacheFile } from './atomic-write.js';
import { readCacheBytes, readCacheRanges } from './cache-files.js';
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
    const key = lineKey(line);
    if (key !== undefined && !lines.has(key)) lines.set(key, line);
  }
}

/** The key an entry line claims, or undefined for a line that is not an entry. */
function lineKey(line: Buffer): string | undefined {
  if (line.compare(KEY_START, 0, KEY_START.length, 0, KEY_START.length) !== 0) return undefined;
  const keyEnd = line.indexOf(QUOTE, KEY_START.length);
  if (keyEnd === -1) return undefined;
  // Keys are ASCII; bytes that are not cannot match one, whatever they decode to.
  return line.toString('latin1', KEY_START.length, keyEnd);
}

/**
 * Beside each pack, where its lines are (`<pack>.places`: `[key, offset, length]` per line), so
 * that a check that needs a few entries (the files a commit touches) reads those lines, not a
 * pack of megabytes. Only a help: a line read from a place is taken only when it claims the key
 * asked for, and is then verified as every line is (decodeEntry); whatever is not found so is
 * looked for in the whole packs.
 */
const PLACES = '.places';

/** Writes `lines` (encoded entries, as the index holds them) as a new pack, with its places. */
export async function writePack(packsDir: string, lines: readonly Buffer[]): Promise<void> {
  if (lines.length === 0) return;
  const name = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.jsonl`;
  const newline = Buffer.from('\n');
  await writeCacheFile(
    join(packsDir, name),
    Buffer.concat(lines.flatMap((line) => [line, newline])),
  );
  const places: [string, number, number][] = [];
  let offset = 0;
  for (const line of lines) {
    const key = lineKey(line);
    if (key !== undefined) places.push([key, offset, line.length]);
    offset += line.length + 1;
  }
  try {
    await writeCacheFile(join(packsDir, `${name}${PLACES}`), JSON.stringify(places));
  } catch {
    // A pack without places is read whole: slower, never wrong.
  }
}

/**
 * The lines of `keys` found through the packs' places, unverified (decodeEntry checks them on
 * use). A key missing here may still be in a pack whose places are missing or stale.
 */
export async function readPlacedLines(
  packsDir: string,
  keys: ReadonlySet<string>,
): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  for (const pack of await listPacks(packsDir)) {
    if (found.size === keys.size) break;
    const wanted = await placesOf(pack, keys, found);
    if (wanted.length === 0) continue;
    const read = await readCacheRanges(pack, wanted);
    if (read.kind !== 'ranges') continue;
    wanted.forEach(({ key }, index) => {
      const line = read.parts[index];
      if (line !== undefined && lineKey(line) === key) found.set(key, line);
    });
  }
  return found;
}

/** Where a pack's places say the keys not found yet are; none when its places are unusable. */
async function placesOf(
  pack: string,
  keys: ReadonlySet<string>,
  found: ReadonlyMap<string, Buffer>,
): Promise<{ key: string; offset: number; length: number }[]> {
  const read = await readCacheBytes(`${pack}${PLACES}`);
  if (read.kind !== 'bytes') return [];
  let places: unknown;
  try {
    places = JSON.parse(read.bytes.toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(places)) return [];
  const wanted: { key: string; offset: number; length: number }[] = [];
  for (const place of places) {
    if (!Array.isArray(place)) return [];
    const [key, offset, length] = place;
    if (typeof key !== 'string' || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length))
      return [];
    if (!keys.has(key) || found.has(key) || offset < 0 || length <= 0) continue;
    // A line longer than any entry is a place not to trust, not a read of that size.
    if (length > MAX_LINE_BYTES) return [];
    wanted.push({ key, offset, length });
  }
  return wanted;
}

/** Far above any entry's line (a file's facts; a file over the read limit is not parsed). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

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
    await rm(`${file}${PLACES}`, { force: true });
  }
}
