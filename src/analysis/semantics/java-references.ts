import type { FileFacts } from '../../model/facts.js';
import type { Repository } from './repository.js';
import type { Located } from './repository-paths.js';
import { declaredIn, type Target, unresolved } from './targets.js';

/**
 * The type a Java reference's first name stands for in a file, by Java's shadowing order: a
 * type the file declares, a single-type import (or single static import) of that name, a type
 * of the same package (folder), then on-demand imports (`a.b.*`, `static a.b.C.*`) in source
 * order. Undefined when none has it: the type is then `java.lang`'s or an on-demand import's
 * from outside the repository.
 */
export function javaSimpleName(
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
export function javaQualifiedName(repository: Repository, written: string): Target {
  const name = written.slice(written.lastIndexOf('.') + 1);
  return declarationAt(repository.java.locate(written), name, written);
}

function declarationAt(located: Located, name: string, written: string): Target {
  if (located.kind === 'file') return { kind: 'declaration', file: located.file, name };
  if (located.kind === 'ambiguous') return unresolved('ambiguous', written);
  return unresolved('external', written);
}
