import { describe, expect, it } from '@jest/globals';
import { renderMarkdown } from '../../src/report/render-markdown.js';
import { BLOCK, finding, HUGE, POLICY_CHANGE, SAMPLES } from './sample-reports.js';

describe('renderMarkdown', () => {
  it.each(SAMPLES)('renders the %s report', (_name, report) => {
    expect(renderMarkdown(report)).toMatchSnapshot();
  });

  it('starts with the hidden marker the sticky comment is found by', () => {
    expect(renderMarkdown(BLOCK).startsWith('<!-- aureus:ledger -->\n')).toBe(true);
    expect(renderMarkdown(BLOCK, { marker: 'aureus:ledger/docs' })).toMatch(
      /^<!-- aureus:ledger\/docs -->\n/,
    );
  });

  it('charts the cost trend from three earlier changes on, with numbers and fixed words alone', () => {
    const earlier = [120, 300.456, 80];
    expect(renderMarkdown(BLOCK, { history: earlier.slice(0, 2) })).not.toContain('mermaid');
    const body = renderMarkdown(BLOCK, { history: [Number.NaN, ...earlier] });
    expect(body).toContain(
      [
        '```mermaid',
        'xychart-beta',
        '    title "Cost per change (points)"',
        '    x-axis "Change" ["-3", "-2", "-1", "this PR"]',
        '    y-axis "Points"',
        '    bar [0, 0, 0, 640]',
        '    line [120, 300.46, 80, 640]',
        '    line [400, 400, 400, 400]',
        '    line [500, 500, 500, 500]',
        '```',
      ].join('\n'),
    );
    const many = Array.from({ length: 30 }, (_, i) => i);
    expect(renderMarkdown(BLOCK, { history: many })).toContain(
      'line [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 640]',
    );
  });

  it('drops the trend chart before it shortens any list to fit the comment', () => {
    const history = [120, 300, 80];
    const full = renderMarkdown(BLOCK, { history });
    const without = renderMarkdown(BLOCK);
    const chartBytes = Buffer.byteLength(full) - Buffer.byteLength(without);
    expect(chartBytes).toBeGreaterThan(0);
    const tight = renderMarkdown(BLOCK, { history, maxBytes: Buffer.byteLength(full) - 1 });
    expect(tight).toBe(without);
  });

  it('refuses a marker that would end the HTML comment early', () => {
    expect(() => renderMarkdown(BLOCK, { marker: 'x --> @everyone <!--' })).toThrow(RangeError);
    expect(() => renderMarkdown(BLOCK, { marker: 'a--b' })).toThrow(RangeError);
  });

  it('shows the cost ledger as a delta per category, with the total and the budget', () => {
    const body = renderMarkdown(BLOCK);
    expect(body).toContain(
      '| Category | Δ points |\n|:--|--:|\n| loc | +420 |\n| dependencies | +95 |\n| abstractions | +50 |\n| security | +75 |\n| **total** | **+640** |',
    );
    expect(body).toContain('**Budget:** 640 of 500 points (140 over); warning at 400.');
    expect(body).toContain(
      '| src/engine.ts:3 | `god_class` | Class Engine has 612 lines of code, more than 500. |',
    );
    expect(body).toContain('| (repository) | `module_budget` |');
  });

  it('links each finding to its lines at the head when it knows where the repository is', () => {
    const head = BLOCK.change.headSha ?? '';
    const body = renderMarkdown(BLOCK, { repositoryUrl: 'https://github.com/octo/app' });
    expect(body).toContain(
      `| [src/engine.ts:3](https://github.com/octo/app/blob/${head}/src/engine.ts#L3-L615) | \`god_class\` |`,
    );
    // A repository-wide finding has no line to link to.
    expect(body).toContain('| (repository) | `module_budget` |');
    // A path that could close the link or open markup is encoded in the target, escaped in the text.
    const hostile = {
      ...BLOCK,
      findings: [finding({ location: { path: 'src/a (b)/c)](x).ts', startLine: 7, endLine: 7 } })],
    };
    expect(
      renderMarkdown(hostile, { repositoryUrl: 'https://ghe.example.com/octo/app' }),
    ).toContain(
      `| [src/a (b)/c)\\](x).ts:7](https://ghe.example.com/octo/app/blob/${head}/src/a%20%28b%29/c%29%5D%28x%29.ts#L7) |`,
    );
    // Without an address, places are plain text as before.
    expect(renderMarkdown(BLOCK)).toContain('| src/engine.ts:3 | `god_class` |');
  });

  it('refuses a repository address that could end the link it starts', () => {
    for (const url of [
      'https://github.com/o/r) [x](y',
      'javascript:alert(1)',
      'https://github.com/o/r/',
    ])
      expect(() => renderMarkdown(BLOCK, { repositoryUrl: url })).toThrow(RangeError);
  });

  it('says a policy change needs maintainer approval', () => {
    expect(renderMarkdown(POLICY_CHANGE)).toContain('policy change — needs maintainer approval');
    expect(renderMarkdown(BLOCK)).not.toContain('policy change');
  });

  it('stays under 65,000 UTF-8 bytes with 10,000 findings full of emoji, and says what it left out', () => {
    const body = renderMarkdown(HUGE);
    expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(65_000);
    expect(body).toMatch(/… and \d+ more \(see the job summary\/artifact\)/);
    expect(body).toContain('#### Blocking findings (5000)');
    expect(body.startsWith('<!-- aureus:ledger -->\n')).toBe(true);
  });

  it.each([30_000, 8_000, 2_000, 600])('keeps within maxBytes = %d', (maxBytes) => {
    const body = renderMarkdown(HUGE, { maxBytes });
    expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(maxBytes);
    expect(body.startsWith('<!-- aureus:ledger -->\n')).toBe(true);
    expect(body).toContain('(see the job summary/artifact)');
  });

  it('stays under the limit when escaping multiplies every character of 10,000 long messages', () => {
    const hostile = '@<|&`'.repeat(2_000);
    const findings = Array.from({ length: 10_000 }, (_, i) =>
      finding({ message: hostile, location: { path: `${hostile}${i}`, startLine: 1, endLine: 1 } }),
    );
    const body = renderMarkdown({ ...HUGE, findings });
    expect(Buffer.byteLength(body, 'utf8')).toBeLessThanOrEqual(65_000);
    expect(body).toMatch(
      /Blocking findings \(10000\)[\s\S]*… and \d+ more \(see the job summary\/artifact\)/,
    );
  });
});
