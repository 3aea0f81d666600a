import type { FileFacts } from '../../model/facts.js';
import type { Located } from '../repository-paths.js';
import { isBuiltinBase } from './builtin-bases.js';
import { bindingNamed, followBinding, lookupExported, newWalk } from './exported-names.js';
import { pythonModule, type Repository } from './repository.js';
import { declaredIn, isScript, type ReferenceTarget, type Target, unresolved } from './targets.js';

/** Resolves a class's `extends` or `implements` entry, as written in `file`, to a declaration. */
export type ResolveReference = (file: string, written: string) => ReferenceTarget;

const NAME = '[\\p{ID_Start}$_][\\p{ID_Continue}$\\u200C\\u200D]*';
/** `Base`, `ns.Base`, `pkg.sub.Base`; anything else (`mixin(Base)`) is an expression. */
const DOTTED_NAME = new RegExp(`^${NAME}(?:\\.${NAME})*$`, 'u');

/**
 * A reference is a dotted name. Its first name is looked up in the file's scope:
 * - a class or abstraction declared in the file wins;
 * - TS/JS: else an import binding of that local name (re-exports bind no local name), followed
 *   to the declaration (exported-names.ts); else it is a global (`external`);
 * - Python: else the file's bindings and `from m import *` (exported-names.ts); else a builtin
 *   (`external`). `a.b.Base` with `import a.b` reads `a.b` as the module (the longest such
 *   import wins);
 * - Java: javaSimpleName and javaQualifiedName below; a dotted name whose first name is no
 *   type is fully qualified;
 * - Go: no inheritance (its interfaces are satisfied implicitly): nothing to resolve.
 * A base that leads out of the repository to a class of the language or its platform
 * (builtin-bases.ts) is `builtin` rather than `external`.
 * Each further name is a member: a name the module exports (or, in Python, a submodule of a
 * package), or a type declared in the file of the type before it (Java nested types, TS
 * namespaces: an approximation that ignores which type the member is nested in). A reference
 * that ends on a module (`extends ns`) is not-found: a module is no class.
 * Answers are kept per (file, reference).
 */
export function createReferenceResolver(repository: Repository): ResolveReference {
  const answers = new Map<string, ReferenceTarget>();
  return (file, written) => {
    const key = `${file}\u0000${written}`;
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = resolveReference(repository, file, written);
    answers.set(key, answer);
    return answer;
  };
}

function resolveReference(repository: Repository, file: string, written: string): ReferenceTarget {
  const facts = repository.files.get(file);
  if (facts === undefined) return { kind: 'unresolved', reason: 'not-found', detail: file };
  if (!DOTTED_NAME.test(written)) {
    return { kind: 'unresolved', reason: 'expression', detail: written };
  }
  const start = firstTarget(repository, file, facts, written);
  let target = start.target;
  for (const name of start.members) target = member(repository, target, name);
  if (target.kind === 'module') {
    return { kind: 'unresolved', reason: 'not-found', detail: `${written} is a module` };
  }
  if (
    target.kind === 'unresolved' &&
    target.reason === 'external' &&
    isBuiltinBase(facts, written)
  ) {
    return { kind: 'unresolved', reason: 'builtin', detail: written };
  }
  return target;
}

interface Start {
  readonly target: Target;
  readonly members: readonly string[];
}

function firstTarget(
  repository: Repository,
  file: string,
  facts: FileFacts,
  written: string,
): Start {
  const [first = '', ...members] = written.split('.');
  if (facts.language === 'java') {
    const head = javaSimpleName(repository, file, facts, first);
    if (head !== undefined) return { target: head, members };
    const target =
      members.length > 0 ? javaQualifiedName(repository, written) : unresolved('external', first);
    return { target, members: [] };
  }
  if (facts.language === 'python') {
    const dotted = pythonDottedImport(facts, written);
    if (dotted !== undefined) {
      const target = pythonModule(repository, file, dotted);
      return { target, members: written.slice(dotted.length + 1).split('.') };
    }
    const local = lookupExported(repository, file, first, newWalk());
    return { target: local ?? unresolved('external', first), members };
  }
  if (isScript(facts)) return { target: scriptLocal(repository, file, facts, first), members };
  return { target: unresolved('not-found', `${written}: no inheritance in Go`), members: [] };
}

function scriptLocal(repository: Repository, file: string, facts: FileFacts, name: string): Target {
  const declared = declaredIn(file, facts, name);
  if (declared !== undefined) return declared;
  const named = bindingNamed(facts.imports, name, (fact) => !fact.reexport);
  if (named === undefined) return unresolved('external', name);
  return followBinding(repository, file, named.fact, named.binding, newWalk());
}

/** `import a.b` (binding `a`) and a reference `a.b.Base`: the longest such module, `a.b`. */
function pythonDottedImport(facts: FileFacts, written: string): string | undefined {
  let longest: string | undefined;
  for (const { specifier, bindings } of facts.imports) {
    const top = specifier.split('.')[0];
    const bindsTop = bindings.some((binding) => binding.imported === '*' && binding.local === top);
    if (!bindsTop || !specifier.includes('.') || !written.startsWith(`${specifier}.`)) continue;
    if (longest === undefined || specifier.length > longest.length) longest = specifier;
  }
  return longest;
}

function member(repository: Repository, target: Target, name: string): Target {
  if (target.kind === 'unresolved') return target;
  if (target.kind === 'declaration') {
    const facts = repository.files.get(target.file);
    const nested = facts === undefined ? undefined : declaredIn(target.file, facts, name);
    return nested ?? unresolved('not-found', `${target.name}.${name} in ${target.file}`);
  }
  const exported = lookupExported(repository, target.file, name, newWalk());
  if (exported !== undefined) return exported;
  const sub = repository.python.submodule(target.file, name);
  if (sub !== undefined) return { kind: 'module', file: sub };
  return unresolved('not-found', `${name} in ${target.file}`);
}

/**
 * The type a Java reference's first name stands for in a file, by Java's shadowing order: a
 * type the file declares, a single-type import (or single static import) of that name, a type
 * of the same package (folder), then on-demand imports (`a.b.*`, `static a.b.C.*`) in source
 * order. Undefined when none has it: the type is then `java.lang`'s or an on-demand import's
 * from outside the repository.
 */
function javaSimpleName(
  repository: Repository,
  file: string,
  facts: FileFacts,
  name: string,
): Target | undefined {
  const declared = declaredIn(file, facts, name);
  if (declared !== undefined) return declared;
  const single = facts.imports.find((fact) =>
    fact.bindings.some((binding) => binding.local === name && binding.imported !== '*'),
  );
  if (single !== undefined) {
    return declarationAt(repository.java.locate(single.specifier), name, single.specifier);
  }
  const samePackage = repository.java.inPackage(file, name);
  if (samePackage.kind !== 'absent') return declarationAt(samePackage, name, name);
  for (const fact of facts.imports) {
    if (!fact.specifier.endsWith('.*')) continue;
    const qualified = `${fact.specifier.slice(0, -1)}${name}`;
    const located = repository.java.locate(qualified);
    if (located.kind !== 'absent') return declarationAt(located, name, qualified);
  }
  return undefined;
}

/** A reference written fully qualified: `com.example.Base`. */
function javaQualifiedName(repository: Repository, written: string): Target {
  const name = written.slice(written.lastIndexOf('.') + 1);
  return declarationAt(repository.java.locate(written), name, written);
}

function declarationAt(located: Located, name: string, written: string): Target {
  if (located.kind === 'file') return { kind: 'declaration', file: located.file, name };
  if (located.kind === 'ambiguous') return unresolved('ambiguous', written);
  return unresolved('external', written);
}
