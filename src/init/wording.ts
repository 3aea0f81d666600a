/** Small wording helpers for the reasons `aureus init` gives: one style in every sentence. */

/** 43120 → "43,120", the same on every machine (no locale). */
export function count(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** 1 file, 2 files. */
export function plural(value: number, noun: string, nouns = `${noun}s`): string {
  return `${count(value)} ${value === 1 ? noun : nouns}`;
}

/** 0.873 → "87 %", rounding half up; anything above 0 and under 0.5 % shows as "<1 %". */
export function percent(share: number): string {
  const rounded = Math.round(share * 100);
  return rounded === 0 && share > 0 ? '<1 %' : `${rounded} %`;
}

/** The first `max` items joined, with "and N more" for the rest. */
export function listed(items: readonly string[], max = 4): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}
