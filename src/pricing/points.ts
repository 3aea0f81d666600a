import type { CostItem } from '../model/cost.js';

/**
 * Rounding of points. Every number a PricedChange holds is rounded to 2 decimals, half away
 * from zero (so a credit rounds like the cost it mirrors: 0.125 → 0.13, −0.125 → −0.13):
 * each item once, then each category as the rounded sum of its rounded items, then the total as
 * the rounded sum of the rounded categories. Summing rounded numbers keeps the breakdown adding
 * up to what a reader can check by hand; rounding the sums again removes binary fractions
 * (0.1 + 0.2) that would otherwise leak into reports.
 */
export function roundPoints(value: number): number {
  if (!Number.isFinite(value)) return 0;
  // The tiny scale-up puts values like 1.005 (stored as 1.00499…) on the side they are written.
  const scaled = Math.round(Math.abs(value) * 100 * (1 + Number.EPSILON * 4));
  const rounded = (Math.sign(value) * scaled) / 100;
  return rounded === 0 ? 0 : rounded;
}

/** The rounded sum of already rounded points. */
export function sumPoints(values: Iterable<number>): number {
  let sum = 0;
  for (const value of values) sum += value;
  return roundPoints(sum);
}

/** What each category's pricing returns: its items and the sentences it could not price exactly. */
export interface PricedPart {
  readonly items: readonly CostItem[];
  readonly notes: readonly string[];
}

/** `n thing` / `n things`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
