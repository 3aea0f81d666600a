/** `1 file`, `3 files`: a count with its noun, for messages. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/**
 * `a`, `a and b`, `a, b and c`; past `max` items the rest are counted (`a, b and 5 more`), so a
 * 200-file cycle still reads as one sentence.
 */
export function listed(items: readonly string[], max = 5): string {
  const shown = items.length > max ? [...items.slice(0, max), `${items.length - max} more`] : items;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
}
