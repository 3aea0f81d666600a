import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { compiledCodeStore } from '../../src/memory/compiled-code-store.js';

const RUNTIME = '11.3-x64';
const SOURCE = 'module.exports = 1;\n'.repeat(100);
const CODE = Buffer.from('compiled code of the source, as V8 would hand it over');

let parent: string;
let folder: string;

beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'aureus-code-store-'));
  folder = join(parent, 'code');
});

afterEach(() => {
  rmSync(parent, { recursive: true, force: true });
});

function onlyEntry(): string {
  const names = readdirSync(folder);
  expect(names).toHaveLength(1);
  return join(folder, String(names[0]));
}

function daysAgo(path: string, days: number): void {
  const when = (Date.now() - days * 24 * 60 * 60 * 1000) / 1000;
  utimesSync(path, when, when);
}

describe('compiledCodeStore', () => {
  it('hands back what was stored for the same source, in a private folder and file', () => {
    const store = compiledCodeStore(folder, RUNTIME);
    expect(store.read(SOURCE)).toEqual({ miss: 'absent' });
    expect(store.write(SOURCE, CODE)).toBe(true);
    expect(store.read(SOURCE)).toEqual({ code: CODE });
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(onlyEntry()).mode & 0o777).toBe(0o600);
  });

  it('finds nothing for other bytes of the same length, nor for another V8 version', () => {
    const store = compiledCodeStore(folder, RUNTIME);
    store.write(SOURCE, CODE);
    // V8 itself would accept this code for it: it compares the length only.
    const sameLength = SOURCE.replace('1;', '2;');
    expect(sameLength).toHaveLength(SOURCE.length);
    expect(store.read(sameLength)).toEqual({ miss: 'absent' });
    expect(compiledCodeStore(folder, '12.4-x64').read(SOURCE)).toEqual({ miss: 'absent' });
  });

  it('refuses an entry with a byte changed, a truncated one, an empty one', () => {
    const store = compiledCodeStore(folder, RUNTIME);
    store.write(SOURCE, CODE);
    const entry = onlyEntry();
    const bytes = readFileSync(entry);
    const altered = Buffer.from(bytes);
    altered[5] = (altered[5] ?? 0) ^ 1;
    for (const damaged of [altered, bytes.subarray(0, bytes.length - 1), Buffer.alloc(0)]) {
      writeFileSync(entry, damaged, { mode: 0o600 });
      expect(store.read(SOURCE)).toEqual({ miss: 'damaged' });
    }
  });

  it('refuses an entry others may write or another user owns, and replaces it', () => {
    const store = compiledCodeStore(folder, RUNTIME);
    store.write(SOURCE, CODE);
    const entry = onlyEntry();
    chmodSync(entry, 0o664);
    expect(store.read(SOURCE)).toEqual({ miss: 'not-private' });
    chmodSync(entry, 0o600);
    if (process.getuid?.() === 0) {
      chownSync(entry, 4242, 4242);
      expect(store.read(SOURCE)).toEqual({ miss: 'not-private' });
    }
    expect(store.write(SOURCE, CODE)).toBe(true);
    expect(store.read(SOURCE)).toEqual({ code: CODE });
  });

  it('reports a folder it cannot create as not written, and leaves no temporary file', () => {
    writeFileSync(folder, 'a file where the folder would be');
    const store = compiledCodeStore(folder, RUNTIME);
    expect(store.write(SOURCE, CODE)).toBe(false);
    expect(store.read(SOURCE)).toEqual({ miss: 'absent' });
    expect(readdirSync(parent)).toEqual(['code']);
  });

  it('on a write, removes entries unread for 30 days and temporary files a day old', () => {
    const old = compiledCodeStore(folder, 'old-x64');
    old.write(SOURCE, CODE);
    const recent = compiledCodeStore(folder, 'recent-x64');
    recent.write(SOURCE, CODE);
    const [oldEntry, recentEntry] = ['old-x64', 'recent-x64'].map((runtime) =>
      join(folder, String(readdirSync(folder).find((name) => name.includes(runtime)))),
    );
    daysAgo(String(oldEntry), 31);
    daysAgo(String(recentEntry), 20);
    const deadTemp = join(folder, 'x.v8code.123.abc.tmp');
    writeFileSync(deadTemp, 'left by a writer that died');
    daysAgo(deadTemp, 2);
    const unrelated = join(folder, 'notes.txt');
    writeFileSync(unrelated, 'not the store’s');
    daysAgo(unrelated, 90);

    compiledCodeStore(folder, RUNTIME).write(SOURCE, CODE);
    const names = readdirSync(folder);
    expect(names).toHaveLength(3);
    expect(names.some((name) => name.includes('old-x64'))).toBe(false);
    expect(names.some((name) => name.includes('recent-x64'))).toBe(true);
    expect(names).toContain('notes.txt');
  });

  it('keeps an entry in use alive: reading one untouched for days renews it', () => {
    const store = compiledCodeStore(folder, RUNTIME);
    store.write(SOURCE, CODE);
    const entry = onlyEntry();
    daysAgo(entry, 29);
    expect(store.read(SOURCE)).toEqual({ code: CODE });
    expect(Date.now() - statSync(entry).mtimeMs).toBeLessThan(60_000);
  });
});
