import { compareStrings } from '../analysis/graph/module-graph.js';
import type { CostItem } from '../model/cost.js';
import type { Policy } from '../model/policy.js';
import type { PricedPart } from './points.js';
import { roundPoints } from './points.js';

/** How a new module's cost item begins, its name following: the ledger reads the name back. */
export const NEW_MODULE = 'new module ';

/**
 * The `modules` category: each policy module at head (groupModules over the head's core
 * files) that is not a module at base costs `pricing.module`, as a repository-wide item (path
 * null; the module's name is in the detail). A module that disappears earns nothing, like a
 * deleted file: its code's lines earn the credit.
 */
export function priceModules(
  baseModules: readonly string[],
  headModules: readonly string[],
  policy: Policy,
): PricedPart {
  const before = new Set(baseModules);
  const added = [...new Set(headModules)].filter((name) => !before.has(name)).sort(compareStrings);
  const items: CostItem[] = added.map((name) => ({
    category: 'modules',
    points: roundPoints(policy.pricing.module),
    path: null,
    detail: `${NEW_MODULE}${name}`,
  }));
  return { items, notes: [] };
}
