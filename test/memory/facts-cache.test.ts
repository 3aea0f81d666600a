import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createFactsCache } from '../../src/memory/facts-cache.js';
import { VERSION_FOLDER } from '../../src/memory/facts-cache-folders.js';
import { decodeEntry, encodeEntry, entryKey } from '../../src/memory/facts-cache-format.js';
import { MAX_PACKS, readPlacedLines } from '../../src/memory/facts-cache-pack.js';
import { AureusError } from '../../src/model/errors.js';
import { ANALYZER_VERSION, type FileFacts } from '../../src/model/facts.js';
import { makeTempDir } from '../support/temp-dir.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const worker = join(repoRoot, 'test', 'memory', 'support', 'facts-cache-worker.mjs');

let root: string;
let removeRoot: () => Promise<void>;
beforeEach(async () => {
  ({ path: root, remove: removeRoot } = await makeTempDir('facts-cache'));
});
afterEach(() => removeRoot());

const blob = (name: string) => createHash('sha1').update(name).digest('hex');
const versionDir = () => join(root, 'facts', VERSION_FOLDER);
const looseFile = (sha: string, language = 'typescript') =>
  join(versionDir(), sha.slice(0, 2), `${sha}-${language}-v${ANALYZER_VERSION}.json`);

function factsOf(code: number): FileFacts {
  return {
    language: 'typescript',
    lines: { code, comment: 0, blank: 0 },
    loc: code,
    classes: [],
    abstractions: [],
    functions: [],
    imports: [
      {
        specifier: './a.js',
        typeOnly: true,
        reexport: false,
        dynamic: false,
        keptWhen: [],
        bindings: [{ imported: 'A', local: 'A' }],
        line: 1,
      },
    ],
    exports: [],
    mutableState: [],
    reflection: [],
    eventSubscriptions: [],
    diContainers: [],
    qualifiedCalls: [],
    diagnostics: [],
  };
}

describe('one entry at a time', () => {
  it('returns what was put, under its blob id and language only', async () => {
    const cache = createFactsCache(root);
    expect(await cache.get(blob('a'), 'typescript')).toBeUndefined();
    await cache.put(blob('a'), 'typescript', factsOf(1));
    expect(await cache.get(blob('a'), 'typescript')).toEqual(factsOf(1));
    expect(await cache.get(blob('a'), 'tsx')).toBeUndefined();
    expect(await cache.get(blob('b'), 'typescript')).toBeUndefined();
    expect(await createFactsCache(root).get(blob('a'), 'typescript')).toEqual(factsOf(1));
    expect(existsSync(looseFile(blob('a')))).toBe(true);
  });

  it('keeps nothing without a cache folder (caching off)', async () => {
    const cache = createFactsCache(undefined);
    await cache.put(blob('a'), 'typescript', factsOf(1));
    await cache.putMany([{ blobSha: blob('b'), language: 'typescript', facts: factsOf(2) }]);
    expect(await cache.get(blob('a'), 'typescript')).toBeUndefined();
    expect(await cache.getMany([{ blobSha: blob('b'), language: 'typescript' }])).toEqual([
      undefined,
    ]);
  });

  it('refuses a key that is not a blob id and a language, before touching the disk', async () => {
    const cache = createFactsCache(root);
    await expect(cache.put('../../../etc', 'typescript', factsOf(1))).rejects.toThrow(TypeError);
    await expect(cache.get(blob('a').toUpperCase(), 'typescript')).rejects.toThrow(TypeError);
    // @ts-expect-error: a language AUREUS does not know, as a JavaScript caller could pass it
    await expect(cache.get(blob('a'), '../x')).rejects.toThrow(TypeError);
    expect(existsSync(join(root, 'facts'))).toBe(false);
  });

  it('ignores entries of other analyzer versions, and entries moved to another key', async () => {
    const other = join(root, 'facts', `v${ANALYZER_VERSION + 1}`);
    const sha = blob('a');
    const otherKey = `${sha}-typescript-v${ANALYZER_VERSION + 1}`;
    await mkdir(join(other, sha.slice(0, 2)), { recursive: true });
    await writeFile(
      join(other, sha.slice(0, 2), `${otherKey}.json`),
      encodeEntry(otherKey, factsOf(9)),
    );
    const cache = createFactsCache(root);
    expect(await cache.get(sha, 'typescript')).toBeUndefined();

    // An intact entry copied into another blob's place carries the wrong key: not trusted.
    await cache.put(sha, 'typescript', factsOf(1));
    await mkdir(join(versionDir(), blob('b').slice(0, 2)), { recursive: true });
    await writeFile(looseFile(blob('b')), await readFile(looseFile(sha)));
    expect(await cache.get(blob('b'), 'typescript')).toBeUndefined();
    expect(existsSync(looseFile(blob('b')))).toBe(false);
  });

  it.each([
    ['truncated', (text: string) => text.slice(0, text.length / 2)],
    ['edited', (text: string) => text.replace('"code":1', '"code":7')],
    ['empty', () => ''],
    ['not JSON', () => 'garbage\n'],
  ])('discards and deletes a %s entry', async (_name, damage) => {
    const cache = createFactsCache(root);
    await cache.put(blob('a'), 'typescript', factsOf(1));
    const path = looseFile(blob('a'));
    await writeFile(path, damage(await readFile(path, 'utf8')));
    expect(await createFactsCache(root).get(blob('a'), 'typescript')).toBeUndefined();
    expect(existsSync(path)).toBe(false);
  });
});

describe('the entry text', () => {
  const withFunctions = (): FileFacts => ({
    ...factsOf(7),
    functions: [
      {
        name: 'run',
        kind: 'function',
        parameters: 2,
        complexity: 3,
        span: { start: 2, end: 9 },
        loc: 8,
        calls: ['helper'],
      },
    ],
  });

  it('gives back the facts as written, keys in their order, functions read on first use', () => {
    const facts = withFunctions();
    const key = `${blob('a')}-typescript-v${ANALYZER_VERSION}`;
    const decoded = decodeEntry(encodeEntry(key, facts), key);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(facts));
    expect(decoded?.functions).toEqual(facts.functions);
    // Read twice, parsed once: the same array.
    expect(decoded?.functions).toBe(decoded?.functions);
  });

  it('refuses an entry whose functions were edited, and one of the earlier layout', () => {
    const key = `${blob('a')}-typescript-v${ANALYZER_VERSION}`;
    const text = encodeEntry(key, withFunctions());
    expect(decodeEntry(text.replace('"complexity":3', '"complexity":1'), key)).toBeUndefined();
    const body = `{"key":"${key}","facts":${JSON.stringify(withFunctions())}`;
    const earlier = `${body},"sha256":"${createHash('sha256').update(body).digest('hex')}"}`;
    expect(decodeEntry(earlier, key)).toBeUndefined();
  });
});

describe('symbolic links', () => {
  it('refuses a cache folder that is a link, and writes nothing through it', async () => {
    const elsewhere = await makeTempDir('facts-cache-elsewhere');
    try {
      await symlink(elsewhere.path, join(root, 'facts'));
      const cache = createFactsCache(root);
      await expect(cache.put(blob('a'), 'typescript', factsOf(1))).rejects.toThrow(AureusError);
      await expect(cache.get(blob('a'), 'typescript')).rejects.toThrow(/symbolic link/);
      await expect(cache.putMany([])).rejects.toThrow(AureusError);
      expect(await readdir(elsewhere.path)).toEqual([]);
    } finally {
      await elsewhere.remove();
    }
  });

  it('refuses a linked shard folder and does not follow a linked entry', async () => {
    const cache = createFactsCache(root);
    await cache.put(blob('a'), 'typescript', factsOf(1));
    const planted = join(root, 'planted.json');
    await writeFile(planted, await readFile(looseFile(blob('a'))));
    const linkedEntry = looseFile(blob('a'));
    await rm(linkedEntry);
    await symlink(planted, linkedEntry);
    expect(await createFactsCache(root).get(blob('a'), 'typescript')).toBeUndefined();
    expect(existsSync(linkedEntry)).toBe(false);
    expect(existsSync(planted)).toBe(true);

    const shaC = blob('c');
    await symlink(root, join(versionDir(), shaC.slice(0, 2)));
    await expect(createFactsCache(root).get(shaC, 'typescript')).rejects.toThrow(AureusError);
  });
});

// Root may write anything: the checks are of owner and modes, which root's files have too.
describe('files and folders of this user alone', () => {
  it('writes folders no one else may enter and entries no one else may read', async () => {
    const cache = createFactsCache(root);
    await cache.put(blob('a'), 'typescript', factsOf(1));
    await cache.putMany([{ blobSha: blob('b'), language: 'typescript', facts: factsOf(2) }]);
    for (const folder of [root, join(root, 'facts'), versionDir(), join(versionDir(), 'packs')])
      expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(looseFile(blob('a'))).mode & 0o777).toBe(0o600);
    // The pack and the places beside it.
    const written = await readdir(join(versionDir(), 'packs'));
    expect(written).toHaveLength(2);
    for (const name of written)
      expect(statSync(join(versionDir(), 'packs', name)).mode & 0o777).toBe(0o600);
  });

  it('takes an entry others may write for a miss, and deletes it', async () => {
    const cache = createFactsCache(root);
    await cache.put(blob('a'), 'typescript', factsOf(1));
    await chmod(looseFile(blob('a')), 0o666);
    expect(await createFactsCache(root).get(blob('a'), 'typescript')).toBeUndefined();
    expect(existsSync(looseFile(blob('a')))).toBe(false);
  });

  it('refuses a cache folder others may write', async () => {
    await createFactsCache(root).put(blob('a'), 'typescript', factsOf(1));
    await chmod(join(root, 'facts'), 0o777);
    await expect(createFactsCache(root).get(blob('a'), 'typescript')).rejects.toThrow(
      /may be written by others/,
    );
  });
});

/** The packs in the packs folder, sorted, without the places written beside them. */
async function packFiles(): Promise<string[]> {
  const names = await readdir(join(versionDir(), 'packs'));
  return names.filter((name) => name.endsWith('.jsonl')).sort();
}

describe('packs', () => {
  const entries = Array.from({ length: 40 }, (_, i) => ({
    blobSha: blob(`pack ${i}`),
    language: 'typescript' as const,
    facts: factsOf(i),
  }));

  it('returns the facts of each key in order, from packs and loose entries alike', async () => {
    const cache = createFactsCache(root);
    await cache.putMany(entries.slice(0, 30));
    const loose = entries[35];
    if (loose === undefined) throw new Error('fixture');
    await cache.put(loose.blobSha, loose.language, loose.facts);
    const found = await createFactsCache(root).getMany(entries);
    expect(found.slice(0, 30)).toEqual(entries.slice(0, 30).map((entry) => entry.facts));
    expect(found[30]).toBeUndefined();
    expect(found[35]).toEqual(loose.facts);
    expect(await createFactsCache(root).get(blob('pack 7'), 'typescript')).toEqual(factsOf(7));
    expect(await packFiles()).toHaveLength(1);
  });

  it('reads a few entries through the places beside their pack: their lines, and no other', async () => {
    await createFactsCache(root).putMany(entries.slice(0, 30));
    const packs = join(versionDir(), 'packs');
    const [pack] = await packFiles();
    const path = join(packs, pack ?? '');
    const keyOf = (i: number) => entryKey(blob(`pack ${i}`), 'typescript');
    const lineOf = async (i: number) =>
      (await readFile(path, 'utf8')).split('\n').find((line) => line.includes(`"${keyOf(i)}"`));
    const placed = await readPlacedLines(packs, new Set([keyOf(2), keyOf(17), keyOf(35)]));
    expect([...placed.keys()].sort()).toEqual([keyOf(2), keyOf(17)].sort());
    expect(placed.get(keyOf(2))?.toString('utf8')).toBe(await lineOf(2));
    expect(placed.get(keyOf(17))?.toString('utf8')).toBe(await lineOf(17));
    const few = [entries[2], entries[17], entries[35]].flatMap((entry) => entry ?? []);
    expect(await createFactsCache(root).getMany(few)).toEqual([factsOf(2), factsOf(17), undefined]);
  });

  it('takes no line a place points at that claims another key, and finds the entry in the pack', async () => {
    await createFactsCache(root).putMany(entries.slice(0, 30));
    const packs = join(versionDir(), 'packs');
    const [pack] = await packFiles();
    const placesFile = join(packs, `${pack}.places`);
    const places: [string, number, number][] = JSON.parse(await readFile(placesFile, 'utf8'));
    const keyOf = (i: number) => entryKey(blob(`pack ${i}`), 'typescript');
    // Entry 2's place swapped for entry 3's: stale places, as after a pack was rewritten.
    const third = places.find(([key]) => key === keyOf(3));
    const swapped = places.map(([key, offset, length]): [string, number, number] =>
      key === keyOf(2) && third !== undefined ? [key, third[1], third[2]] : [key, offset, length],
    );
    await writeFile(placesFile, JSON.stringify(swapped));
    expect([...(await readPlacedLines(packs, new Set([keyOf(2), keyOf(3)]))).keys()]).toEqual([
      keyOf(3),
    ]);
    const two = [entries[2], entries[3]].flatMap((entry) => entry ?? []);
    expect(await createFactsCache(root).getMany(two)).toEqual([factsOf(2), factsOf(3)]);
    // Places that do not parse, or none at all: the pack is read whole, the answers the same.
    await writeFile(placesFile, '[["not', 'utf8');
    expect(await readPlacedLines(packs, new Set([keyOf(2)]))).toEqual(new Map());
    expect(await createFactsCache(root).getMany(two)).toEqual([factsOf(2), factsOf(3)]);
    await rm(placesFile);
    expect(await createFactsCache(root).getMany(two)).toEqual([factsOf(2), factsOf(3)]);
  });

  it('builds a pack entry by entry, storing nothing before it is written', async () => {
    const pack = createFactsCache(root).startPack();
    for (const entry of entries.slice(0, 5)) pack.add(entry);
    expect(await createFactsCache(root).get(blob('pack 2'), 'typescript')).toBeUndefined();
    await pack.write();
    const found = await createFactsCache(root).getMany(entries.slice(0, 6));
    expect(found).toEqual([...entries.slice(0, 5).map((entry) => entry.facts), undefined]);
    expect(await packFiles()).toHaveLength(1);
  });

  it('fails the write, not the add, of a pack given an entry it cannot key', async () => {
    const pack = createFactsCache(root).startPack();
    const unkeyable = { blobSha: '../escape', language: 'typescript' as const, facts: factsOf(0) };
    expect(() => pack.add(unkeyable)).not.toThrow();
    await expect(pack.write()).rejects.toThrow(/not a git blob id/);
    expect(existsSync(join(versionDir(), 'packs'))).toBe(false);
  });

  it('drops the folders an upgrade left behind once nothing wrote to them for 14 days', async () => {
    const facts = join(root, 'facts');
    const old = join(facts, 'v2', 'packs');
    const recent = join(facts, 'v9-layout7', 'ab');
    await mkdir(old, { recursive: true });
    await writeFile(join(old, 'old.jsonl'), 'x\n');
    await mkdir(recent, { recursive: true });
    const monthAgo = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    for (const folder of [old, join(facts, 'v2')]) await utimes(folder, monthAgo, monthAgo);
    await createFactsCache(root).putMany(entries.slice(0, 3));
    expect((await readdir(facts)).sort()).toEqual([VERSION_FOLDER, 'v9-layout7'].sort());
    expect(await createFactsCache(root).get(blob('pack 1'), 'typescript')).toEqual(factsOf(1));
  });

  it('treats a damaged pack line as a miss and keeps the intact ones', async () => {
    await createFactsCache(root).putMany(entries.slice(0, 3));
    const packs = join(versionDir(), 'packs');
    const [pack] = await packFiles();
    const path = join(packs, pack ?? '');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"code":1,', '"code":5,'));
    const found = await createFactsCache(root).getMany(entries.slice(0, 3));
    expect(found).toEqual([factsOf(0), undefined, factsOf(2)]);
  });

  it('reads entries beyond ASCII exactly, and refuses a line whose bytes are not its UTF-8', async () => {
    // Names and messages beyond ASCII: each line is decoded on its own, the others stay ASCII.
    const named = (i: number, name: string): FileFacts => ({
      ...factsOf(i),
      diagnostics: [{ line: 1, column: 1, message: `unexpected ${name}` }],
    });
    const wide = [
      { blobSha: blob('wide 0'), language: 'typescript' as const, facts: named(0, 'plain') },
      { blobSha: blob('wide 1'), language: 'typescript' as const, facts: named(1, '−‖ é 𝒜 語') },
      { blobSha: blob('wide 2'), language: 'typescript' as const, facts: named(2, 'ascii') },
    ];
    await createFactsCache(root).putMany(wide);
    expect(await createFactsCache(root).getMany(wide)).toEqual(wide.map(({ facts }) => facts));
    const packs = join(versionDir(), 'packs');
    const [pack] = await packFiles();
    const path = join(packs, pack ?? '');
    const bytes = await readFile(path);
    // 'é' is C3 A9 in UTF-8; alone, A9 is no character: the line's checksum no longer holds.
    const at = bytes.indexOf(Buffer.from('é'));
    await writeFile(path, Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]));
    const found = await createFactsCache(root).getMany(wide);
    expect(found).toEqual([wide[0]?.facts, undefined, wide[2]?.facts]);
  });

  it(`merges packs once there are more than ${MAX_PACKS}, dropping damaged lines`, async () => {
    for (let i = 0; i < MAX_PACKS; i++)
      await createFactsCache(root).putMany(entries.slice(i, i + 2));
    const packs = join(versionDir(), 'packs');
    expect(await packFiles()).toHaveLength(MAX_PACKS);
    // Damage entry 0, which only the first pack holds.
    const [first] = await packFiles();
    const firstPath = join(packs, first ?? '');
    await writeFile(
      firstPath,
      (await readFile(firstPath, 'utf8')).replace('"code":0,', '"code":9,'),
    );
    await createFactsCache(root).putMany(entries.slice(30));
    const [merged, ...others] = await packFiles();
    expect(others).toEqual([]);
    // The merged packs' places went with them; the merged pack has its own.
    expect((await readdir(packs)).sort()).toEqual([merged, `${merged}.places`]);
    expect((await readFile(join(packs, merged ?? ''), 'utf8')).split('\n')).toHaveLength(
      MAX_PACKS + 10 + 1,
    );
    const found = await createFactsCache(root).getMany(entries);
    expect(found[0]).toBeUndefined();
    expect(found.filter((facts) => facts !== undefined)).toHaveLength(MAX_PACKS + 10);
  });
});

describe('concurrent runs', () => {
  beforeAll(() => {
    for (const module of [
      'facts-cache',
      'facts-cache-pack',
      'facts-cache-folders',
      'facts-cache-format',
      'cache-files',
    ]) {
      const built = join(repoRoot, 'dist', 'memory', `${module}.js`);
      const source = join(repoRoot, 'src', 'memory', `${module}.ts`);
      if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) {
        throw new Error(
          `${built} is missing or stale: build with \`npx tsc -p tsconfig.build.json\``,
        );
      }
    }
  });

  function run(args: string[]): Promise<string> {
    const child: ChildProcess = spawn(process.execPath, [worker, root, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`worker exited with ${code}: ${stderr}`)),
      );
    });
  }

  it('10 processes writing the same keys all succeed; readers never see a torn entry', async () => {
    const keys = 40;
    const outputs = await Promise.all([
      ...Array.from({ length: 5 }, () => run(['put', String(keys), '3'])),
      ...Array.from({ length: 5 }, () => run(['putMany', String(keys), '4'])),
      run(['read', String(keys), '30']),
      run(['read', String(keys), '30']),
    ]);
    expect(outputs.slice(0, 10).every((output) => output === '')).toBe(true);
    const found = await createFactsCache(root).getMany(
      Array.from({ length: keys }, (_, i) => ({
        blobSha: createHash('sha1').update(`blob ${i}`).digest('hex'),
        language: 'typescript' as const,
      })),
    );
    expect(found.map((facts) => facts?.lines.code)).toEqual(
      Array.from({ length: keys }, (_, i) => i),
    );
    // No temporary file is left behind by any writer.
    const names = await readdir(versionDir(), { recursive: true });
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect((await packFiles()).length).toBeLessThanOrEqual(MAX_PACKS + 5);
  });
});
