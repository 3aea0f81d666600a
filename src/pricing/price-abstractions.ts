import type { CostItem } from '../model/cost.js';
import type { ClassFact, FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';
import type { PricedPart } from './priced-part.js';

const NO_FACTS: Pick<FileFacts, 'abstractions' | 'classes'> = { abstractions: [], classes: [] };

/**
 * The `abstractions` category, per priced file, comparing its head facts with its base facts
 * (a rename is compared with the old path's facts, so moving a file adds nothing; a copy has no
 * base, so all it holds is new):
 * - a new abstraction (an interface, abstract class or Python Protocol whose name is not among
 *   the base's abstractions) costs `pricing.abstraction`; an abstraction whose name is gone at
 *   head earns the same as a credit. Names are compared, not kinds: turning an interface into
 *   an abstract class is not a new abstraction.
 * - a new class hierarchy level (a head class with `extends` that is new, or whose `extends`
 *   differs from its base version's) costs the same; a base level that is gone (the class is
 *   gone or no longer extends that class) earns the same credit. Re-parenting a class is thus
 *   one level added and one removed: 0 net.
 * Files without facts have no abstractions. Path weights do not apply: the policy defines them
 * on lines only (see the report's proposal).
 */
export function priceAbstractions(files: readonly PricedFile[], policy: Policy): PricedPart {
  const items: CostItem[] = [];
  const points = roundPoints(policy.pricing.abstraction);
  for (const file of files) {
    const base = file.base?.facts ?? NO_FACTS;
    const head = file.head?.facts ?? NO_FACTS;
    const item = (sign: 1 | -1, detail: string): CostItem => ({
      category: 'abstractions',
      points: roundPoints(sign * points),
      path: file.path,
      detail,
    });
    const baseNames = new Set(base.abstractions.map((fact) => fact.name));
    const headNames = new Set(head.abstractions.map((fact) => fact.name));
    for (const fact of head.abstractions) {
      if (!baseNames.has(fact.name)) items.push(item(1, `new ${wordOf(fact.kind)} ${fact.name}`));
    }
    for (const fact of base.abstractions) {
      if (!headNames.has(fact.name))
        items.push(item(-1, `removes ${wordOf(fact.kind)} ${fact.name}`));
    }
    for (const level of newLevels(base.classes, head.classes)) {
      items.push(item(1, `new class hierarchy level: ${level.name} extends ${level.parent}`));
    }
    for (const level of newLevels(head.classes, base.classes)) {
      items.push(item(-1, `removes class hierarchy level: ${level.name} extends ${level.parent}`));
    }
  }
  return { items: dedupe(items), notes: [] };
}

/** `extends` edges of `after` that `before` does not have (the same class, the same parent). */
function newLevels(before: readonly ClassFact[], after: readonly ClassFact[]) {
  const known = new Set(before.map((fact) => `${fact.name}\0${fact.extends ?? ''}`));
  return after.flatMap((fact) =>
    fact.extends === null || known.has(`${fact.name}\0${fact.extends}`)
      ? []
      : [{ name: fact.name, parent: fact.extends }],
  );
}

function wordOf(kind: 'interface' | 'abstract-class' | 'protocol'): string {
  return kind === 'abstract-class' ? 'abstract class' : kind;
}

/** TypeScript declaration merging repeats an interface name; it is one abstraction. */
function dedupe(items: readonly CostItem[]): CostItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.path}\0${item.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
