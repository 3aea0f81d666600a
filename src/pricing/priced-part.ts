import type { CostItem } from '../model/cost.js';

/** What each category's pricing returns: its items and the sentences it could not price exactly. */
export interface PricedPart {
  readonly items: readonly CostItem[];
  readonly notes: readonly string[];
}

/** `n thing` / `n things`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
