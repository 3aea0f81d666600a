import type { ReflectionKind } from '../model/facts.js';

/** An item a rule reports, with the symbol that tells it apart from its neighbours in the file. */
export interface Named<T> {
  readonly item: T;
  readonly symbol: string;
}

/**
 * For things that may share a name within one file (two nested `Builder` classes in a Java
 * file, two `var x` in a script): the first keeps the name, the ones after it take `#2`,
 * `#3`… in source order, so every finding of a rule in a file has its own fingerprint while
 * the common, unrepeated case keeps the plain name.
 */
export function distinctlyNamed<T>(items: readonly T[], nameOf: (item: T) => string): Named<T>[] {
  return numbered(items, nameOf, (name, n) => (n === 1 ? name : `${name}#${n}`));
}

/**
 * `kind:n`, n counting from 1 among the file's items of that kind in source order. A finding
 * keyed so is renamed only by an edit of the same kind above it in the same file, and even
 * then the base and head sets differ by exactly the number of occurrences added: one eval
 * added anywhere in a file makes one new finding, never a new one for each eval below it.
 */
export function ordinallyNamed<T>(items: readonly T[], kindOf: (item: T) => string): Named<T>[] {
  return numbered(items, kindOf, (kind, n) => `${kind}:${n}`);
}

function numbered<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  symbolOf: (key: string, n: number) => string,
): Named<T>[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const key = keyOf(item);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return { item, symbol: symbolOf(key, n) };
  });
}

/** How a message names each kind of reflection (ReflectionFact), in any language. */
export const REFLECTION_WORDING: Readonly<Record<ReflectionKind, string>> = {
  eval: 'code evaluated from a string (eval)',
  'new-function': 'a function built from a string (new Function)',
  proxy: 'a Proxy',
  reflect: 'the Reflect API',
  'dynamic-import': 'an import of a module named at run time',
  'dynamic-require': 'a require() of a module named at run time',
  getattr: 'attribute access by a computed name (getattr, setattr, delattr)',
  'dunder-import': '__import__',
  'java-reflection': 'Java reflection',
};
