import { describe, expect, it } from '@jest/globals';
import { renderText } from '../../src/report/render-text.js';
import { BLOCK, finding, HOSTILE, HUGE, PASS, SAMPLES } from './sample-reports.js';

const ANSI = /\p{Cc}\[[0-9;]*m/gu;

function linesOf(text: string): string[] {
  return text.split('\n').slice(0, -1);
}

describe('renderText', () => {
  it.each(SAMPLES)('renders the %s report', (_name, report) => {
    expect(renderText(report, { color: false })).toMatchSnapshot();
  });

  it('puts the verdict line first', () => {
    const [first] = linesOf(renderText(BLOCK, { color: false }));
    expect(first).toBe('AUREUS: BLOCK — 640 points, budget 500 (140 over)');
    expect(linesOf(renderText(PASS, { color: false }))[0]).toBe(
      'AUREUS: PASS — 42 points, budget 500 (458 left)',
    );
  });

  it('lists only the categories that cost something', () => {
    const text = renderText(BLOCK, { color: false });
    expect(text).toContain(
      'Cost by category: loc +420, dependencies +95, abstractions +50, security +75\n',
    );
    expect(text).not.toMatch(/(files|modules|tool) [+-]?\d/);
  });

  it('reads a typical blocked change in about 20 lines', () => {
    expect(linesOf(renderText(BLOCK, { color: false })).length).toBeLessThanOrEqual(24);
  });

  it('stays short with 10,000 findings and says how many more there are', () => {
    const lines = linesOf(renderText(HUGE, { color: false }));
    expect(lines.length).toBeLessThanOrEqual(40);
    expect(lines).toContain('  … and 4990 more');
    expect(lines).toContain('  … and 1997 more');
  });

  it('colours only when color is true, and says the same thing either way', () => {
    const plain = renderText(BLOCK, { color: false });
    const coloured = renderText(BLOCK, { color: true });
    expect(plain).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(coloured).toMatch(ANSI);
    expect(coloured.replace(ANSI, '')).toBe(plain);
  });

  it('cuts lines to the width of the terminal', () => {
    const lines = linesOf(renderText(BLOCK, { color: true, width: 40 }));
    for (const line of lines)
      expect(Array.from(line.replace(ANSI, '')).length).toBeLessThanOrEqual(40);
    expect(lines[0]?.replace(ANSI, '')).toBe('AUREUS: BLOCK — 640 points, budget 500 …');
  });

  it('never lets a file name start a line or a control character reach the terminal', () => {
    const text = renderText(HOSTILE, { color: false });
    for (const line of linesOf(text)) expect(line.trimStart().startsWith('::')).toBe(false);
    expect(text).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(text).toContain('✖ ::add-mask::x:1  god_class  ::error file=a::pwn');
  });

  it('clips a message of a megabyte to one readable line', () => {
    const long = { ...BLOCK, findings: [finding({ message: 'x'.repeat(1_000_000) })] };
    const lines = linesOf(renderText(long, { color: false }));
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(400);
  });
});
