import { describe, expect, it } from '@jest/globals';
import { escapeMarkdown } from '../../src/report/markdown-escape.js';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { HOSTILE } from './sample-reports.js';

/** The cells of a markdown table row, split where GFM splits them: at pipes not escaped. */
function cellsOf(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1);
}

describe('escapeMarkdown', () => {
  it('escapes the characters that would split a cell, open code, emphasis or links', () => {
    expect(escapeMarkdown('a|b `c` *d* _e_ [f](g) ~h~ \\i')).toBe(
      'a\\|b \\`c\\` \\*d\\* \\_e\\_ \\[f\\](g) \\~h\\~ \\\\i',
    );
  });

  it('turns HTML and entities into text', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)> &lt; <!-- x -->')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &amp;lt; &lt;!-- x --&gt;',
    );
  });

  it('neutralises mentions and issue references with a zero-width space', () => {
    expect(escapeMarkdown('@octocat (@org/team) org/repo#12 #7 C# me@example.com')).toBe(
      '@&#8203;octocat (@&#8203;org/team) org/repo#&#8203;12 #&#8203;7 C# me@example.com',
    );
  });

  it('breaks the bare URLs GitHub would make live links of, with a zero-width space', () => {
    expect(
      escapeMarkdown('https://evil.example/phish www.evil-example.com/login wwwx.io a.www.b'),
    ).toBe('https:&#8203;//evil.example/phish www&#8203;.evil-example.com/login wwwx.io a.www.b');
  });

  it('keeps the text on one line, with control characters and bytes that are not UTF-8 escaped', () => {
    expect(escapeMarkdown('a\nb\r\nc\u001b[31m\u202ed x\uDCFE.ts')).toBe(
      'a b  c\\\\u001B\\[31m\\\\u202Ed x\\\\xFE.ts',
    );
  });
});

describe('renderMarkdown with hostile file names and messages', () => {
  const body = renderMarkdown(HOSTILE);
  const row = body.split('\n').find((line) => line.startsWith('| ::add-mask::x:1 '));

  it('keeps the finding in one table row of exactly three cells', () => {
    expect(row).toBeDefined();
    expect(cellsOf(row ?? '')).toHaveLength(3);
    expect(body).not.toContain('| injected | row |');
  });

  it('lets no HTML, mention, or second marker through', () => {
    expect(body.match(/<!--/g)).toHaveLength(1);
    expect(body).not.toMatch(/<img|@octocat|@team|#12/);
    expect(body).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(row).toContain('\\`tick\\`');
  });
});
