/** Unchanged lines shown around each change, as `diff -u` does. */
const CONTEXT = 3;
/**
 * Past this many line pairs the longest-common-subsequence table would cost more memory than a
 * policy diff is worth; the diff then shows the whole file replaced.
 */
const MAX_CELLS = 4_000_000;

type Line = { readonly kind: ' ' | '-' | '+'; readonly text: string };

/**
 * A unified diff (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks) from `before` to `after`, or ''
 * when they are equal. Lines are compared whole; a missing final newline is not marked.
 */
export function unifiedDiff(
  before: string,
  after: string,
  names: readonly [string, string],
): string {
  if (before === after) return '';
  const lines = diffLines(splitLines(before), splitLines(after));
  const hunks: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const change = lines.findIndex((line, at) => at >= index && line.kind !== ' ');
    if (change === -1) break;
    const start = Math.max(change - CONTEXT, index === 0 ? 0 : index);
    let end = change;
    // Extend the hunk while the next change is within two contexts of this one.
    for (let at = change; at < lines.length; at += 1) {
      if (lines[at]?.kind !== ' ') end = at;
      else if (at - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(end + CONTEXT + 1, lines.length);
    hunks.push(hunk(lines, start, stop));
    index = stop;
  }
  return [`--- ${names[0]}`, `+++ ${names[1]}`, ...hunks].join('\n').concat('\n');
}

function hunk(lines: readonly Line[], start: number, stop: number): string {
  const before = (at: number) => lines.slice(0, at).filter((line) => line.kind !== '+').length;
  const after = (at: number) => lines.slice(0, at).filter((line) => line.kind !== '-').length;
  const body = lines.slice(start, stop);
  const oldCount = body.filter((line) => line.kind !== '+').length;
  const newCount = body.filter((line) => line.kind !== '-').length;
  const oldStart = before(start) + (oldCount === 0 ? 0 : 1);
  const newStart = after(start) + (newCount === 0 ? 0 : 1);
  return [
    `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`,
    ...body.map((line) => `${line.kind}${line.text}`),
  ].join('\n');
}

/** The edit script of a longest common subsequence: deletions before insertions at each step. */
function diffLines(a: readonly string[], b: readonly string[]): Line[] {
  if (a.length * b.length > MAX_CELLS) {
    return [
      ...a.map((text) => ({ kind: '-' as const, text })),
      ...b.map((text) => ({ kind: '+' as const, text })),
    ];
  }
  const width = b.length + 1;
  // common[i * width + j]: length of the LCS of a[i..] and b[j..].
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      common[i * width + j] =
        a[i] === b[j]
          ? (common[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(common[(i + 1) * width + j] ?? 0, common[i * width + j + 1] ?? 0);
    }
  }
  const lines: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: ' ', text: a[i] ?? '' });
      i += 1;
      j += 1;
    } else if (
      j >= b.length ||
      (i < a.length && (common[(i + 1) * width + j] ?? 0) >= (common[i * width + j + 1] ?? 0))
    ) {
      lines.push({ kind: '-', text: a[i] ?? '' });
      i += 1;
    } else {
      lines.push({ kind: '+', text: b[j] ?? '' });
      j += 1;
    }
  }
  return lines;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
