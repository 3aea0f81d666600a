import type { FileFacts, ImportBinding, ImportFact } from '../../model/facts.js';
import { joinDotted, moduleOfBinding, type Repository } from './repository.js';
import { DEFAULT_EXPORT, declaredIn, isScript, type Target, unresolved } from './targets.js';

/**
 * What a name of a module leads to, as another module imports it, following re-exports from
 * file to file:
 * - a class or abstraction the file declares wins (targets.ts: declaredIn);
 * - TS/JS: `export { A as B } from` (B → A there), `export * as ns from` (ns → the module),
 *   an imported name the file exports again (`import { A } …; export { A }`, CommonJS
 *   `const { A } = require(…); exports.A = A`), then each `export * from` in source order
 *   (never for `default`, as in ES modules): the first that has the name wins, and one that
 *   leads to a package only answers when no repository file has the name;
 * - Python: every name the module binds is importable from it: its import bindings, then each
 *   `from m import *`; `from pkg import mod` may name a submodule `pkg/mod.py`;
 * - Java re-exports nothing (nested types are declarations of the file).
 * One query never visits a (file, name) twice, which ends re-export cycles (and keeps a name
 * reached through several `export *` paths from being searched again), and follows at most
 * MAX_DEPTH re-exports in a row.
 */
export interface Walk {
  /** Shared by the whole query. */
  readonly visited: Set<string>;
  /** Re-exports followed to get here. */
  readonly depth: number;
}

export const MAX_DEPTH = 32;

export function newWalk(): Walk {
  return { visited: new Set(), depth: 0 };
}

function deeper(walk: Walk): Walk {
  return { visited: walk.visited, depth: walk.depth + 1 };
}

/** The target of `name` exported by `file`; undefined when the file has no such name. */
export function lookupExported(
  repository: Repository,
  file: string,
  name: string,
  walk: Walk,
): Target | undefined {
  const key = visitKey(file, name);
  if (walk.visited.has(key)) return undefined;
  // The walk recurses once per re-export: the bound keeps the stack safe, and what lies past it
  // is unknown, which the analysis reports as incomplete (analyze-snapshot.ts).
  if (walk.depth > MAX_DEPTH) return unresolved('too-deep', `${name}: re-export chain too long`);
  walk.visited.add(key);
  const facts = repository.files.get(file);
  if (facts === undefined) return undefined;
  const declared = declaredIn(file, facts, name);
  if (declared !== undefined) return declared;
  if (isScript(facts)) return scriptExport(repository, file, facts, name, walk);
  if (facts.language === 'python') return pythonName(repository, file, facts, name, walk);
  return undefined;
}

function visitKey(file: string, name: string): string {
  return `${file}\u0000${name}`;
}

/** Where a binding leads: the module itself for `*`, else the name it imports from there. */
export function followBinding(
  repository: Repository,
  file: string,
  fact: ImportFact,
  binding: ImportBinding,
  walk: Walk,
): Target {
  const module = moduleOfBinding(repository, file, fact, binding);
  const python = repository.files.get(file)?.language === 'python';
  if (module.kind !== 'module') {
    return python ? (submodule(repository, file, fact, binding) ?? module) : module;
  }
  if (binding.imported === '*') return module;
  if (walk.visited.has(visitKey(module.file, binding.imported))) {
    return unresolved('not-found', `${binding.imported}: re-export cycle through ${module.file}`);
  }
  const found = lookupExported(repository, module.file, binding.imported, deeper(walk));
  if (found !== undefined) return found;
  const sub = python ? submodule(repository, file, fact, binding) : undefined;
  return sub ?? unresolved('not-found', `${binding.imported} in ${module.file}`);
}

/** Python `from pkg import mod` where `mod` is a module of the package, not a name in it. */
function submodule(
  repository: Repository,
  file: string,
  fact: ImportFact,
  binding: ImportBinding,
): Target | undefined {
  if (binding.imported === '*') return undefined;
  const located = repository.python.locate(file, joinDotted(fact.specifier, binding.imported));
  return located.kind === 'file' ? { kind: 'module', file: located.file } : undefined;
}

/** Names a module binds for itself: `local` in a binding. */
export function bindingNamed(
  imports: readonly ImportFact[],
  local: string,
  accept: (fact: ImportFact) => boolean,
): { readonly fact: ImportFact; readonly binding: ImportBinding } | undefined {
  for (const fact of imports) {
    if (!accept(fact)) continue;
    const binding = fact.bindings.find((candidate) => candidate.local === local);
    if (binding !== undefined) return { fact, binding };
  }
  return undefined;
}

function scriptExport(
  repository: Repository,
  file: string,
  facts: FileFacts,
  name: string,
  walk: Walk,
): Target | undefined {
  const exportsName = facts.exports.some((fact) => fact.name === name);
  const named = bindingNamed(facts.imports, name, (fact) => fact.reexport || exportsName);
  if (named !== undefined) return followBinding(repository, file, named.fact, named.binding, walk);
  if (name === DEFAULT_EXPORT) return undefined;
  return fromEveryName(repository, file, facts, name, walk, (fact) => fact.reexport);
}

function pythonName(
  repository: Repository,
  file: string,
  facts: FileFacts,
  name: string,
  walk: Walk,
): Target | undefined {
  const named = bindingNamed(facts.imports, name, () => true);
  if (named !== undefined) return followBinding(repository, file, named.fact, named.binding, walk);
  return fromEveryName(repository, file, facts, name, walk, () => true);
}

/** `export * from` / `from m import *`: the first module that has the name. */
function fromEveryName(
  repository: Repository,
  file: string,
  facts: FileFacts,
  name: string,
  walk: Walk,
  accept: (fact: ImportFact) => boolean,
): Target | undefined {
  let outside: Target | undefined;
  for (const fact of facts.imports) {
    const every = fact.bindings.find((binding) => binding.local === '*');
    if (every === undefined || !accept(fact)) continue;
    const module = moduleOfBinding(repository, file, fact, every);
    if (module.kind !== 'module') {
      if (module.kind === 'unresolved' && module.reason === 'external') outside ??= module;
      continue;
    }
    const found = lookupExported(repository, module.file, name, deeper(walk));
    if (found !== undefined) return found;
  }
  return outside;
}
