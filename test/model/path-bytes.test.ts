import { describe, expect, it } from '@jest/globals';
import { hasEscapedBytes, pathFromBytes, pathToBytes } from '../../src/model/path-bytes.js';

/** A small deterministic generator (mulberry32): the same bytes on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('pathFromBytes and pathToBytes', () => {
  it('decode valid UTF-8 as UTF-8, and give the same bytes back', () => {
    for (const name of ['src/a.ts', 'ünïcödé/日本語 ファイル.txt', 'emoji 😀.md', 'new\nline']) {
      const bytes = Buffer.from(name, 'utf8');
      expect(pathFromBytes(bytes)).toBe(name);
      expect(hasEscapedBytes(name)).toBe(false);
      expect(pathToBytes(name).equals(bytes)).toBe(true);
    }
  });

  it('keep each byte that is not UTF-8 as its own character', () => {
    const fe = pathFromBytes(Buffer.from('x\xfe.ts', 'latin1'));
    const ff = pathFromBytes(Buffer.from('x\xff.ts', 'latin1'));
    expect(fe).toBe('x\uDCFE.ts');
    expect(ff).toBe('x\uDCFF.ts');
    expect(hasEscapedBytes(fe)).toBe(true);
    // A truncated sequence, an overlong form, an encoded surrogate, a code point past U+10FFFF.
    for (const hex of ['e282', 'c0af', 'eda080', 'f4908080', 'e28241']) {
      const bytes = Buffer.from(hex, 'hex');
      const text = pathFromBytes(bytes);
      expect(text).not.toContain('\uFFFD');
      expect(pathToBytes(text).equals(bytes)).toBe(true);
    }
  });

  it('round-trips any bytes, and never gives two byte strings the same text', () => {
    const random = generator(34);
    const seen = new Map<string, string>();
    for (let run = 0; run < 5000; run += 1) {
      const bytes = Buffer.from(
        Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
          // Mostly the bytes UTF-8 is made of, so valid and broken sequences both come up.
          random() < 0.5 ? 0x80 + Math.floor(random() * 0x80) : Math.floor(random() * 0x100),
        ),
      );
      const text = pathFromBytes(bytes);
      expect(pathToBytes(text).equals(bytes)).toBe(true);
      const hex = bytes.toString('hex');
      expect(seen.get(text) ?? hex).toBe(hex);
      seen.set(text, hex);
    }
  });
});
