import { describe, expect, it } from '@jest/globals';
import { renderHook } from '../../src/report/render-hook.js';
import { BLOCK, HOSTILE, HUGE, PASS, SAMPLES } from '../report/sample-reports.js';

const lines = (text: string) => text.split('\n').slice(0, -1);
const FOOTER = ['To commit anyway: …', 'Hooks are advisory …'];

describe('renderHook', () => {
  it.each(SAMPLES)(
    'renders the %s report in at most 10 lines before the footer',
    (_name, report) => {
      const text = renderHook(report, { color: false, footer: FOOTER });
      expect(text.endsWith('\n')).toBe(true);
      expect(lines(text).length).toBeLessThanOrEqual(10 + FOOTER.length);
      expect(lines(text).slice(-2)).toEqual(FOOTER);
    },
  );

  it('reads verdict, reasons, the cost on one line, then the alternatives', () => {
    expect(lines(renderHook(BLOCK, { color: false }))).toMatchSnapshot();
  });

  it('keeps the worst case short and every untrusted text on one line', () => {
    expect(lines(renderHook(HUGE, { color: false })).length).toBeLessThanOrEqual(10);
    const hostile = renderHook(HOSTILE, { color: false });
    expect(hostile.includes('\u001b') || hostile.includes('\u202e')).toBe(false);
    for (const line of lines(hostile)) {
      expect(Array.from(line).length).toBeLessThanOrEqual(170);
      // A GitHub runner reads a line starting with `::` as a workflow command.
      expect(line.startsWith('::')).toBe(false);
    }
  });

  it('wraps to the width at spaces, indents what follows, and keeps a wider word whole', () => {
    const path = `src/${'deep/'.repeat(20)}name.ts`;
    const report = { ...BLOCK, reasons: [`new god_class: ${path} is a class of 900 lines`] };
    const wrapped = lines(renderHook(report, { color: false, width: 40, footer: FOOTER }));
    expect(wrapped.slice(0, 5)).toEqual([
      'AUREUS: BLOCK — 640 points, budget 500',
      '  (140 over)',
      '  - new god_class:',
      `    ${path}`,
      '    is a class of 900 lines',
    ]);
    for (const line of wrapped) expect(line.length <= 40 || line.trim() === path).toBe(true);
    // Undone, the wrapping gives back every word of the unwrapped lines.
    const words = (text: string) => text.split(/\s+/).join(' ').trim();
    expect(words(renderHook(report, { color: false, width: 40, footer: FOOTER }))).toBe(
      words(renderHook(report, { color: false, footer: FOOTER })),
    );
  });

  it('prints only the headline and the footer when brief', () => {
    expect(lines(renderHook(BLOCK, { color: false, brief: true, footer: FOOTER }))).toEqual([
      'AUREUS: BLOCK — 640 points, budget 500 (140 over)',
      ...FOOTER,
    ]);
    expect(lines(renderHook(PASS, { color: false, brief: true }))).toEqual([
      'AUREUS: PASS — 42 points, budget 500 (458 left)',
    ]);
  });

  it('colours the headline only when asked', () => {
    expect(renderHook(BLOCK, { color: true })).toContain('\u001b[1;31mAUREUS: BLOCK');
    expect(renderHook(BLOCK, { color: false })).not.toContain('\u001b');
  });
});
