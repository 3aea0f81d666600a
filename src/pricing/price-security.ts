import type { CostItem } from '../model/cost.js';
import type { Policy } from '../model/policy.js';
import { surfacesOf } from './detect-surfaces.js';
import type { PricedPart } from './points.js';
import { roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';

/**
 * The `security` category. A new touch of a sensitive surface in a file is a surface present
 * in its head facts and absent from its base facts (a rename is compared with the old path, so
 * moving a file touches nothing new; an added or copied file has an empty base). Each new touch
 * is one item costing that surface's `pricing.security` weight. A surface the base already
 * touched costs nothing however much more of it the head uses, and a surface removed earns no
 * credit: a touch is a risk to review, and removing one needs no review. Files without facts
 * touch nothing that can be seen. Path weights do not apply (the policy defines them on lines).
 */
export function priceSecurity(files: readonly PricedFile[], policy: Policy): PricedPart {
  const items: CostItem[] = [];
  for (const file of files) {
    const head = file.head?.facts;
    if (head === undefined) continue;
    const base = file.base?.facts;
    const before = base === undefined ? new Map() : surfacesOf(base);
    for (const [surface, evidence] of surfacesOf(head)) {
      if (before.has(surface)) continue;
      items.push({
        category: 'security',
        points: roundPoints(policy.pricing.security[surface]),
        path: file.path,
        detail: `new ${surface} surface: ${evidence}`,
      });
    }
  }
  return { items, notes: [] };
}
