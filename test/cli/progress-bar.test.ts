import { describe, expect, it } from '@jest/globals';
import { createProgressBar, renderLine } from '../../src/cli/progress-bar.js';

describe('the progress bar', () => {
  it('draws a bar with counts, cut to the terminal width', () => {
    expect(renderLine(512, 2048, 'files parsed', 80)).toBe(
      '[######..................] 512/2048 files parsed',
    );
    expect(renderLine(3, 3, 'done', 80)).toBe('[########################] 3/3 done');
    expect(renderLine(1, 2, 'a long label that does not fit', 30)).toHaveLength(29);
  });

  it('redraws in place on a terminal, at most every 80 ms, and clears itself', () => {
    const written: string[] = [];
    let clock = 0;
    const bar = createProgressBar(
      { write: (text) => written.push(text), interactive: true, columns: 80 },
      () => clock,
    );
    bar.update(1, 10, 'files');
    clock = 10;
    bar.update(2, 10, 'files');
    clock = 100;
    bar.update(3, 10, 'files');
    bar.update(10, 10, 'files');
    bar.finish();
    expect(written).toEqual([
      '\r[##......................] 1/10 files\u001b[K',
      '\r[#######.................] 3/10 files\u001b[K',
      '\r[########################] 10/10 files\u001b[K',
      '\r\u001b[K',
    ]);
  });

  it('stays silent when stderr is not a terminal or runs in CI', () => {
    const written: string[] = [];
    const bar = createProgressBar({
      write: (text) => written.push(text),
      interactive: false,
      columns: 80,
    });
    bar.update(1, 2, 'files');
    bar.finish();
    expect(written).toEqual([]);
  });
});
