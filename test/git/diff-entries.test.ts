import { describe, expect, it } from '@jest/globals';
import { parseRawDiff } from '../../src/git/diff-entries.js';
import { AureusError } from '../../src/model/errors.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

function raw(...fields: string[]): Buffer {
  return Buffer.from(fields.map((field) => `${field}\0`).join(''), 'utf8');
}

describe('parseRawDiff', () => {
  it('reads modes, ids, letters, scores and byte-exact paths', () => {
    const entries = parseRawDiff(
      raw(
        `:100644 100755 ${A} ${B} M`,
        'new\nline.ts',
        `:100644 100644 ${A} ${B} R086`,
        ':old name.ts',
        '-new name.ts',
        `:000000 120000 ${Z} ${B} A`,
        'link',
      ),
    );
    expect(
      entries.map((e) => [e.letter, e.score, e.srcMode, e.dstMode, e.srcPath.text, e.dstPath.text]),
    ).toEqual([
      ['M', undefined, '100644', '100755', 'new\nline.ts', 'new\nline.ts'],
      ['R', 86, '100644', '100644', ':old name.ts', '-new name.ts'],
      ['A', undefined, '000000', '120000', 'link', 'link'],
    ]);
    expect(entries[0]?.srcSha).toBe(A);
    expect(entries[0]?.dstSha).toBe(B);
  });

  it('keeps the bytes of a name that is not UTF-8', () => {
    const name = Buffer.from([0x66, 0xff, 0x2e, 0x74]);
    const output = Buffer.concat([
      Buffer.from(`:100644 100644 ${A} ${B} M\0`),
      name,
      Buffer.from([0]),
    ]);
    const [entry] = parseRawDiff(output);
    expect(entry?.dstPath.validUtf8).toBe(false);
    expect(entry?.dstPath.bytes.equals(name)).toBe(true);
    expect(entry?.dstPath.text).toBe('f\uDCFF.t');
  });

  it('reads nothing from no output', () => {
    expect(parseRawDiff(Buffer.alloc(0))).toEqual([]);
  });

  it('refuses output it does not understand instead of dropping files', () => {
    expect(() => parseRawDiff(raw('diff --git a/x b/x'))).toThrow(AureusError);
    expect(() => parseRawDiff(raw(`:100644 100644 ${A} ${B} R100`, 'only-one-path'))).toThrow(
      /could not parse/,
    );
  });
});
