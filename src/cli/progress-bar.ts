/** Where a progress bar draws, and whether it may (a TTY outside CI). */
export interface ProgressTarget {
  readonly write: (text: string) => void;
  readonly interactive: boolean;
  readonly columns: number;
}

export interface ProgressBar {
  update(done: number, total: number, label: string): void;
  finish(): void;
}

/** Redraws at most this often: a repaint per file would cost more than the parsing on fast runs. */
const REDRAW_MS = 80;

/**
 * A one-line progress bar on stderr for long whole-repository runs. Quiet when stderr is not a
 * terminal or in CI, where carriage returns only clutter logs.
 */
export function createProgressBar(
  target: ProgressTarget,
  now: () => number = Date.now,
): ProgressBar {
  if (!target.interactive) return { update: () => undefined, finish: () => undefined };
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(done, total, label) {
      const time = now();
      if (done < total && time - lastDraw < REDRAW_MS) return;
      lastDraw = time;
      drawn = true;
      target.write(`\r${renderLine(done, total, label, target.columns)}\u001b[K`);
    },
    finish() {
      if (drawn) target.write('\r\u001b[K');
    },
  };
}

/** `[#####.....]  512/2048 files  label`, cut to the terminal width. */
export function renderLine(done: number, total: number, label: string, columns: number): string {
  const width = 24;
  const ratio = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(ratio * width);
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`;
  return line.length > columns - 1 ? line.slice(0, Math.max(0, columns - 1)) : line;
}
