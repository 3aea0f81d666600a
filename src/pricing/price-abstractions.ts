import { isBuiltinBase } from '../analysis/semantics/builtin-bases.js';
import type { CostItem } from '../model/cost.js';
import type { AbstractionFact, FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import type { PricedPart } from './points.js';
import { roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';

const NO_ABSTRACTIONS: Pick<FileFacts, 'abstractions'> = { abstractions: [] };

/**
 * The `abstractions` category, per priced file, comparing its head facts with its base facts
 * (a rename is compared with the old path's facts, so moving a file adds nothing; a copy has no
 * base, so all it holds is new):
 * - a new abstraction (an interface, abstract class or Python Protocol whose name is not among
 *   the base's abstractions) costs `pricing.abstraction`; an abstraction whose name is gone at
 *   head earns the same as a credit. Names are compared, not kinds: turning an interface into
 *   an abstract class is not a new abstraction.
 * - an interface of data (only properties: AbstractionFact.dataOnly) that no class of the
 *   change implements is a type, not an abstraction: it costs what the equivalent `type` alias
 *   costs, nothing, and earns nothing when removed. One a class implements, or with methods
 *   meant to be implemented, is an abstraction.
 * - a builtin base (`extends Error`, Python's `Exception` or `TypedDict`; builtin-bases.ts) is
 *   no hierarchy level, as in the inheritance depth.
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
  const implemented = {
    base: implementedNames(files.map((file) => file.base?.facts)),
    head: implementedNames(files.map((file) => file.head?.facts)),
  };
  for (const file of files) {
    const base = file.base?.facts ?? NO_ABSTRACTIONS;
    const head = file.head?.facts ?? NO_ABSTRACTIONS;
    const item = (sign: 1 | -1, detail: string): CostItem => ({
      category: 'abstractions',
      points: roundPoints(sign * points),
      path: file.path,
      detail,
    });
    const baseNames = new Set(base.abstractions.map((fact) => fact.name));
    const headNames = new Set(head.abstractions.map((fact) => fact.name));
    for (const fact of head.abstractions) {
      if (baseNames.has(fact.name) || isData(fact, implemented.head)) continue;
      items.push(item(1, `new ${wordOf(fact.kind)} ${fact.name}`));
    }
    for (const fact of base.abstractions) {
      if (headNames.has(fact.name) || isData(fact, implemented.base)) continue;
      items.push(item(-1, `removes ${wordOf(fact.kind)} ${fact.name}`));
    }
    const baseLevels = levelsOf(file.base?.facts);
    const headLevels = levelsOf(file.head?.facts);
    for (const level of newLevels(baseLevels, headLevels)) {
      items.push(item(1, `new class hierarchy level: ${level.name} extends ${level.parent}`));
    }
    for (const level of newLevels(headLevels, baseLevels)) {
      items.push(item(-1, `removes class hierarchy level: ${level.name} extends ${level.parent}`));
    }
  }
  return { items: dedupe(items), notes: [] };
}

/**
 * An interface of data (AbstractionFact.dataOnly) that no class of the change implements: a
 * type, priced like the `type` alias it could be (nothing). A class implementing a new
 * interface is in the change too (it could not name it before), so the change's own classes
 * are where to look.
 */
function isData(fact: AbstractionFact, implemented: ReadonlySet<string>): boolean {
  return fact.dataOnly && !implemented.has(fact.name);
}

/** The names the classes of these facts implement, by their last name (`ns.Point` → `Point`). */
function implementedNames(sides: readonly (FileFacts | undefined)[]): Set<string> {
  return new Set(
    sides.flatMap((facts) =>
      (facts?.classes ?? []).flatMap((fact) =>
        fact.implements.map((written) => written.slice(written.lastIndexOf('.') + 1)),
      ),
    ),
  );
}

interface Level {
  readonly name: string;
  readonly parent: string;
}

/** A file's `extends` edges, builtin bases left out (`extends Error` is no level). */
function levelsOf(facts: FileFacts | undefined): Level[] {
  if (facts === undefined) return [];
  return facts.classes.flatMap((fact) =>
    fact.extends === null || isBuiltinBase(facts, fact.extends)
      ? []
      : [{ name: fact.name, parent: fact.extends }],
  );
}

/** The levels of `after` that `before` does not have (the same class, the same parent). */
function newLevels(before: readonly Level[], after: readonly Level[]): Level[] {
  const known = new Set(before.map((level) => `${level.name}\0${level.parent}`));
  return after.filter((level) => !known.has(`${level.name}\0${level.parent}`));
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
