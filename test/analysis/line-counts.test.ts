import { describe, expect, it } from '@jest/globals';
import { classifyLines } from '../../src/analysis/tree-sitter/line-counts.js';
import { createLineIndex, type TextRange } from '../../src/analysis/tree-sitter/line-index.js';

/** Ranges of every match of `pattern`, for hand-made comment and string lists. */
function rangesOf(text: string, pattern: RegExp): TextRange[] {
  return [...text.matchAll(pattern)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
  }));
}

describe('the line index', () => {
  it('does not start a line after a final newline, nor in an empty text', () => {
    expect(createLineIndex('').lineCount).toBe(0);
    expect(createLineIndex('\n').lineCount).toBe(1);
    expect(createLineIndex('a\nb').lineCount).toBe(2);
    expect(createLineIndex('a\r\nb\r\n').lineCount).toBe(2);
  });

  it('maps offsets to lines and ranges to spans (the last character decides the end)', () => {
    const index = createLineIndex('ab\ncd\nef\n');
    expect([0, 2, 3, 8, 9].map(index.lineOf)).toEqual([1, 1, 2, 3, 3]);
    expect(index.spanOf({ start: 1, end: 6 })).toEqual({ start: 1, end: 2 });
    expect(index.spanOf({ start: 3, end: 3 })).toEqual({ start: 2, end: 2 });
  });
});

describe('line classification', () => {
  const classify = (text: string, comments: RegExp, strings = /(?!)/g) =>
    classifyLines(text, createLineIndex(text), rangesOf(text, comments), rangesOf(text, strings));

  it('counts a line with code outside comments as code, else comment, else blank', () => {
    const text = 'x = 1 # c\n# only\n\n  \t\n/* a */ y\n';
    expect(classify(text, /#.*|\/\*.*?\*\//g).counts).toEqual({ code: 2, comment: 1, blank: 2 });
  });

  it('counts every line of a block comment as comment, an empty one included', () => {
    const text = 'code\n/*\n\n   */\n';
    expect(classify(text, /\/\*[\s\S]*?\*\//g).counts).toEqual({ code: 1, comment: 3, blank: 0 });
  });

  it('counts whitespace-only lines inside a multi-line string as code', () => {
    const text = 's = `a\n\n   \nb`\n\n';
    expect(classify(text, /(?!)/g, /`[^`]*`/g).counts).toEqual({ code: 4, comment: 0, blank: 1 });
  });

  it('gives the code lines of a span', () => {
    const text = 'a\n// c\n\nb\nc\n';
    const lines = classify(text, /\/\/.*/g);
    expect(lines.codeLinesIn({ start: 1, end: 4 })).toBe(2);
    expect(lines.codeLinesIn({ start: 2, end: 3 })).toBe(0);
    expect(lines.codeLinesIn({ start: 5, end: 9 })).toBe(1);
  });

  it('treats a BOM and Unicode spaces as whitespace', () => {
    expect(classify('\uFEFF\n\u00a0\u2003\nx\n', /(?!)/g).counts).toEqual({
      code: 1,
      comment: 0,
      blank: 2,
    });
  });
});
