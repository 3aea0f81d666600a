import type { AbstractionDeclaration, ClassHeritage, Heritage } from './heritage.js';
import { keyOf } from './heritage.js';
import type { DeclarationRef } from './targets.js';

export interface AbstractionImplementations extends AbstractionDeclaration {
  /** Classes naming it in their `extends` or `implements`, abstract ones included. */
  readonly direct: readonly DeclarationRef[];
  /**
   * The direct ones and every class below them through `extends`/`implements` chains: a class
   * extending a class that implements an interface implements it too. Abstract ones included.
   */
  readonly all: readonly DeclarationRef[];
  /**
   * `all` less abstract classes and classes that are themselves abstractions: the
   * implementations that can exist at run time. This is the count the critic's "an interface
   * or abstract class with fewer than 2 implementations" should use: an abstract class between
   * an interface and one concrete class does not make the interface less premature.
   */
  readonly concrete: readonly DeclarationRef[];
}

/**
 * The implementations of every abstraction (interface, abstract class, protocol), in the
 * order of Heritage.abstractions; each list in repository order (path, then source order).
 * Only declared parents count: an interface that extends another is not in the facts, so a
 * class implementing the sub-interface is not counted for the super-interface, and structural
 * conformance (a TS object literal typed with the interface) is invisible. Parents that do
 * not resolve (heritage.ts: unresolvedHeritage) count for nothing.
 */
export function countImplementations(heritage: Heritage): AbstractionImplementations[] {
  const order = new Map(heritage.classes.map((cls, index) => [keyOf(cls), index]));
  const children = childrenByParent(heritage.classes);
  const inOrder = (classes: Iterable<ClassHeritage>) =>
    [...classes].sort((a, b) => (order.get(keyOf(a)) ?? 0) - (order.get(keyOf(b)) ?? 0));
  return heritage.abstractions.map((abstraction) => {
    const own = children.get(keyOf(abstraction));
    // Most abstractions have no implementation at all (effect: thousands of interfaces).
    if (own === undefined) return { ...abstraction, direct: [], all: [], concrete: [] };
    const direct = inOrder(own);
    const all = inOrder(descendants(abstraction, children));
    return {
      ...abstraction,
      direct: direct.map(refOf),
      all: all.map(refOf),
      concrete: all.filter((cls) => !cls.abstract).map(refOf),
    };
  });
}

/** Each declaration's direct subclasses and implementations, once each. */
function childrenByParent(classes: readonly ClassHeritage[]): Map<string, Set<ClassHeritage>> {
  const children = new Map<string, Set<ClassHeritage>>();
  for (const cls of classes) {
    const parents = cls.extends === null ? cls.implements : [cls.extends, ...cls.implements];
    for (const { target } of parents) {
      if (target.kind !== 'declaration') continue;
      const key = keyOf(target);
      const set = children.get(key) ?? new Set();
      set.add(cls);
      children.set(key, set);
    }
  }
  return children;
}

/** Every class below a declaration; a cycle of parents (broken code) ends where it closes. */
function descendants(
  root: DeclarationRef,
  children: ReadonlyMap<string, ReadonlySet<ClassHeritage>>,
): Set<ClassHeritage> {
  const found = new Set<ClassHeritage>();
  const visited = new Set([keyOf(root)]);
  const queue = [root];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(keyOf(next)) ?? []) {
      const key = keyOf(child);
      if (visited.has(key)) continue;
      visited.add(key);
      found.add(child);
      queue.push(child);
    }
  }
  return found;
}

function refOf({ file, name }: DeclarationRef): DeclarationRef {
  return { file, name };
}
