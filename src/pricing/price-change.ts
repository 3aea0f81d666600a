import { compareStrings } from '../analysis/graph/module-graph.js';
import type { Change } from '../model/change.js';
import {
  COST_CATEGORIES,
  type CostBreakdown,
  type CostCategory,
  type CostItem,
  type PricedChange,
} from '../model/cost.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { priceDependencies } from './dependencies/price-dependencies.js';
import { pathRules, type SideShippedTests } from './path-rules.js';
import { sumPoints } from './points.js';
import { priceAbstractions } from './price-abstractions.js';
import { priceLoc, priceNewlyShipped, textCreditTakenBack } from './price-loc.js';
import { priceSecurity } from './price-security.js';
import { priceFiles, priceModules } from './price-structure.js';
import { pricedFiles } from './priced-files.js';
import { unmeasuredFiles } from './unmeasured-files.js';

export interface PricingInput {
  readonly change: Change;
  /**
   * Facts of each changed file's base version, by base path, and of its head version, by head
   * path (text files in supported languages only).
   */
  readonly baseFacts: ReadonlyMap<string, FileFacts>;
  readonly headFacts: ReadonlyMap<string, FileFacts>;
  /** Policy modules of the repository at base and at head (the module budget's unit). */
  readonly baseModules: readonly string[];
  readonly headModules: readonly string[];
  /** The BASE policy: its weights and its `paths` (ignore, tests, generated) price the change. */
  readonly policy: Policy;
  /**
   * Per side, the files named as tests that the product runs (path-rules.ts shippedTests): they
   * are priced as product code (tests-in-product.ts). Without them, names decide.
   */
  readonly shippedTests?: SideShippedTests;
  /**
   * The paths of the lockfiles AUREUS reads that the head holds, changed or not (not ignored):
   * a new npm dependency none of them installs is unmeasured (price-dependencies.ts). Absent
   * when the head's files are not known (a change priced on its own, as reflexion does).
   */
  readonly headLockfiles?: readonly string[];
}

/**
 * What a change costs: each category priced by its own module (price-*.ts, dependencies/),
 * whose doc comment states its rules, and the files it could not measure (unmeasured-files.ts).
 * Pure and total: malformed inputs become notes, never throws. `tool` is 0: a change from git or GitHub has no builder actions (the builder adds
 * its own). Rounding is points.ts's: items to 2 decimals, categories and total as rounded sums.
 */
export function priceChange(input: PricingInput): PricedChange {
  const { policy } = input;
  const rules = pathRules(policy, input.shippedTests, {
    base: input.baseFacts,
    head: input.headFacts,
  });
  const files = pricedFiles(input.change.files, input, rules);
  const dependencies = priceDependencies(files, policy, rules, input.headLockfiles ?? []);
  const loc = priceLoc(files, policy, rules);
  const touched = new Set(
    input.change.files.flatMap(({ path, oldPath }) =>
      oldPath === undefined ? [path] : [path, oldPath],
    ),
  );
  const parts = [
    loc,
    priceNewlyShipped(touched, input.headFacts, input.shippedTests?.head, policy, rules),
    dependencies,
    priceAbstractions(files, policy),
    priceSecurity(files, policy),
    priceFiles(files, policy),
    priceModules(input.baseModules, input.headModules, policy),
  ];
  const priced = parts.flatMap((part) => part.items);
  const rest = sumPoints(priced.map((item) => item.points)) - loc.textPoints;
  const takenBack = textCreditTakenBack(loc.textPoints, rest);
  const items = sortItems(takenBack === undefined ? priced : [...priced, takenBack]);
  const notes = [...new Set(parts.flatMap((part) => part.notes))];
  return {
    cost: breakdownOf(items),
    items,
    dependencies: dependencies.dependencies,
    notes,
    unmeasured: [...unmeasuredFiles(files, rules), ...dependencies.unmeasured],
  };
}

function breakdownOf(items: readonly CostItem[]): CostBreakdown {
  const of = (category: CostCategory) =>
    sumPoints(items.filter((item) => item.category === category).map((item) => item.points));
  const categories = {
    loc: of('loc'),
    dependencies: of('dependencies'),
    abstractions: of('abstractions'),
    security: of('security'),
    files: of('files'),
    modules: of('modules'),
    tool: 0,
  };
  return { ...categories, total: sumPoints(Object.values(categories)) };
}

/** Category order, then path (repository-wide items first); a stable sort keeps each module's own order within. */
function sortItems(items: readonly CostItem[]): CostItem[] {
  return [...items].sort((a, b) => {
    const byCategory = COST_CATEGORIES.indexOf(a.category) - COST_CATEGORIES.indexOf(b.category);
    if (byCategory !== 0) return byCategory;
    if (a.path === b.path) return 0;
    if (a.path === null) return -1;
    if (b.path === null) return 1;
    return compareStrings(a.path, b.path);
  });
}
