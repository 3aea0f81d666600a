import type { ReflectionKind } from '../model/facts.js';

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
