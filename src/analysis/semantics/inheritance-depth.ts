import { type ClassHeritage, type Heritage, keyOf } from './heritage.js';
import type { DeclarationRef, UnresolvedReason } from './targets.js';

export type AncestorLink =
  | ({ readonly kind: 'declaration' } & DeclarationRef)
  | {
      readonly kind: 'unresolved';
      readonly written: string;
      readonly reason: UnresolvedReason;
      readonly detail: string;
    };

export interface ClassInheritance extends DeclarationRef {
  /** The number of `extends` levels above the class: the length of `chain`. */
  readonly depth: number;
  /** Its ancestors through `extends`, the parent first. */
  readonly chain: readonly AncestorLink[];
}

/** Longer chains are cut here; no real hierarchy comes near it. */
export const MAX_DEPTH = 64;

/**
 * Every class's `extends` chain across files, in Heritage.classes order. How the chain ends:
 * - at a class without `extends`;
 * - at a builtin base (`Error`, `Exception`, `object`, `java.lang.RuntimeException`, Python's
 *   `TypedDict`; builtin-bases.ts): no level, as every class of its kind has that root (so
 *   `class NotFound extends AppError`, `class AppError extends Error` has depth 1);
 * - at another base that does not resolve (a package's class, an expression): it counts as
 *   one level and the walk stops, since its own ancestors are out of sight (so
 *   `class A extends React.Component` has depth 1, like `class A extends Base {}` with a root
 *   `Base` in the repository): a library's base class brings behaviour the class overrides
 *   and is read through (a component's lifecycle), which a builtin's does not;
 * - at a declaration that is not a class (an interface named in `extends`, invalid but
 *   parsed): one level;
 * - before a class already in the chain (a cycle, only in broken code).
 * Python's other bases (ClassFact.implements) and every `implements` are not levels.
 */
export function inheritanceDepth(heritage: Heritage): ClassInheritance[] {
  const classes = new Map<string, ClassHeritage>();
  for (const cls of heritage.classes) classes.set(keyOf(cls), cls);
  return heritage.classes.map((cls) => {
    const chain = ancestorsOf(cls, classes);
    return { file: cls.file, name: cls.name, depth: chain.length, chain };
  });
}

function ancestorsOf(cls: ClassHeritage, classes: ReadonlyMap<string, ClassHeritage>) {
  const chain: AncestorLink[] = [];
  const seen = new Set([keyOf(cls)]);
  let base = cls.extends;
  while (base !== null && chain.length < MAX_DEPTH) {
    const { target, written } = base;
    if (target.kind === 'unresolved') {
      if (target.reason === 'builtin') break;
      chain.push({ kind: 'unresolved', written, reason: target.reason, detail: target.detail });
      break;
    }
    const key = keyOf(target);
    if (seen.has(key)) break;
    seen.add(key);
    chain.push({ kind: 'declaration', file: target.file, name: target.name });
    base = classes.get(key)?.extends ?? null;
  }
  return chain;
}
