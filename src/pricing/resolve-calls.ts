import type { FileFacts, ImportBinding, ImportFact } from '../model/facts.js';
import type { LanguageFamily } from './security-surfaces.js';

/**
 * What a callee (FileFacts.qualifiedCalls) may stand for, from its root name: `module` is the
 * specifier the root was imported from (`node:` dropped), or null for a global; `path` the
 * names after the module. `fsp.rm` with `import { promises as fsp } from 'fs'` →
 * `{ module: 'fs', path: ['promises', 'rm'] }`; `fetch` unbound → `{ module: null, path: ['fetch'] }`.
 */
export interface ResolvedCall {
  readonly module: string | null;
  readonly path: readonly string[];
}

/** The names of the global object: `globalThis.fetch` is the global `fetch`. */
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'self', 'global']);

/**
 * Each callee's readings, by the scope rules a syntax-level reader can apply:
 * - a root bound by a runtime import (re-exports bind no local name) is that import's: a
 *   namespace, default or `require` binding stands for the module, a named one for its export
 *   (Java's `import a.b.C` for `C` of `a.b`); Python's `import a.b` binds `a`, the top package;
 * - a root the file declares (a function, class, exported or module-level variable) is its own,
 *   and stands for nothing sensitive;
 * - any other root may come from an on-demand import (`from m import *`, Java's `a.b.*` and its
 *   implicit `java.lang.*`, Go's dot import), one reading each, and is otherwise a global
 *   (`globalThis.x`, `window.x` read as the global `x`). A Java name that is neither imported
 *   nor declared is also read as written, fully qualified (`java.io.File`).
 * Limits: local variables and parameters are not facts, so one that shadows an import or a
 * global (`const fetch = …` inside a function) is still read as what it shadows; a callee
 * reached through a call (`require('fs').writeFileSync()`, `Path(p).write_text()`) has no
 * chain of names and no reading (security-surfaces.ts reads methods of such objects).
 */
export function resolveCalls(facts: FileFacts, family: LanguageFamily): ResolvedCall[] {
  const imports = facts.imports.filter((fact) => !fact.typeOnly && !fact.reexport);
  const declared = declaredNames(facts);
  const wildcards = imports.filter((fact) =>
    fact.bindings.some((binding) => binding.local === '*' || binding.local === '.'),
  );
  const onDemand = wildcards.map((fact) => moduleName(fact.specifier.replace(/\.\*$/, ''), family));
  if (family === 'java') onDemand.push('java.lang');
  return facts.qualifiedCalls.flatMap((callee) => {
    const [root = '', ...rest] = callee.split('.');
    const bound = bindingOf(imports, root);
    if (bound !== undefined) return [readBinding(bound.fact, bound.binding, rest, family)];
    if (declared.has(root)) return [];
    const global = family === 'script' && GLOBAL_OBJECTS.has(root) && rest.length > 0;
    return [
      ...onDemand.map((module) => ({ module, path: [root, ...rest] })),
      { module: null, path: global ? rest : [root, ...rest] },
    ];
  });
}

/** The named bindings of runtime imports, the last one of a name winning (as at run time). */
function bindingOf(
  imports: readonly ImportFact[],
  local: string,
): { fact: ImportFact; binding: ImportBinding } | undefined {
  let found: { fact: ImportFact; binding: ImportBinding } | undefined;
  for (const fact of imports) {
    const binding = fact.bindings.find((candidate) => candidate.local === local);
    if (binding !== undefined) found = { fact, binding };
  }
  return found;
}

function readBinding(
  fact: ImportFact,
  binding: ImportBinding,
  rest: readonly string[],
  family: LanguageFamily,
): ResolvedCall {
  const specifier = moduleName(fact.specifier, family);
  if (binding.imported === '*' || (family === 'script' && binding.imported === 'default')) {
    const top = specifier.split('.')[0] ?? specifier;
    // Python's `import a.b` binds `a`: `a.b.f()` reaches `f` through the top package.
    const module = family === 'python' && binding.local === top ? top : specifier;
    return { module, path: rest };
  }
  if (family === 'java') {
    const owner = specifier.endsWith(`.${binding.imported}`)
      ? specifier.slice(0, -binding.imported.length - 1)
      : specifier;
    return { module: owner, path: [binding.imported, ...rest] };
  }
  return { module: specifier, path: [binding.imported, ...rest] };
}

/** A specifier as the table writes it: JavaScript's `node:` prefix dropped. */
export function moduleName(specifier: string, family: LanguageFamily): string {
  return family === 'script' && specifier.startsWith('node:')
    ? specifier.slice('node:'.length)
    : specifier;
}

function declaredNames(facts: FileFacts): Set<string> {
  const names = [
    ...facts.functions.map((fn) => fn.name),
    ...facts.classes.map((cls) => cls.name),
    ...facts.abstractions.map((abstraction) => abstraction.name),
    ...facts.mutableState.map((state) => state.name),
    ...facts.exports.map((fact) => fact.name),
  ];
  return new Set(names.filter((name) => !name.includes('.') && name !== 'default'));
}
