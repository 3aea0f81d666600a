import type { AbstractionKind, FileFacts } from '../../model/facts.js';
import { compareStrings } from '../graph/module-graph.js';
import type { ResolveImport } from '../resolve/resolution.js';
import { createRepository } from './repository.js';
import { createReferenceResolver } from './resolve-reference.js';
import type { DeclarationRef, ReferenceTarget, UnresolvedReason } from './targets.js';

export interface HeritageReference {
  /** As the class writes it, generic arguments removed (ClassFact). */
  readonly written: string;
  readonly target: ReferenceTarget;
}

export interface ClassHeritage extends DeclarationRef {
  /** An abstract class, or a class that is itself an abstraction (a Python Protocol). */
  readonly abstract: boolean;
  readonly extends: HeritageReference | null;
  readonly implements: readonly HeritageReference[];
}

export interface AbstractionDeclaration extends DeclarationRef {
  readonly kind: AbstractionKind;
}

/**
 * Every class's parents, resolved across files, and every abstraction: what implementations
 * and inheritance depth are computed from. In path order, then source order. Go is left out:
 * it has no inheritance, and its interfaces are satisfied without being named, which no
 * syntax-level analysis can see. A name declared twice in one file (Java nested types of two
 * outer types, TS namespaces) is one declaration, the first.
 */
export interface Heritage {
  readonly classes: readonly ClassHeritage[];
  readonly abstractions: readonly AbstractionDeclaration[];
}

export interface UnresolvedHeritage {
  /** The class whose parent this is. */
  readonly file: string;
  readonly name: string;
  readonly relation: 'extends' | 'implements';
  readonly written: string;
  readonly reason: UnresolvedReason;
  readonly detail: string;
}

export function resolveHeritage(
  files: ReadonlyMap<string, FileFacts>,
  resolve: ResolveImport,
): Heritage {
  const resolveReference = createReferenceResolver(createRepository(files, resolve));
  const classes: ClassHeritage[] = [];
  const abstractions: AbstractionDeclaration[] = [];
  for (const file of [...files.keys()].sort(compareStrings)) {
    const facts = files.get(file);
    if (facts === undefined || facts.language === 'go') continue;
    const reference = (written: string): HeritageReference => ({
      written,
      target: resolveReference(file, written),
    });
    const abstractNames = new Set(facts.abstractions.map((fact) => fact.name));
    const seen = new Set<string>();
    for (const fact of facts.classes) {
      if (seen.has(fact.name)) continue;
      seen.add(fact.name);
      classes.push({
        file,
        name: fact.name,
        abstract: fact.abstract || abstractNames.has(fact.name),
        extends: fact.extends === null ? null : reference(fact.extends),
        implements: fact.implements.map(reference),
      });
    }
    const seenAbstractions = new Set<string>();
    for (const { name, kind } of facts.abstractions) {
      if (seenAbstractions.has(name)) continue;
      seenAbstractions.add(name);
      abstractions.push({ file, name, kind });
    }
  }
  return { classes, abstractions };
}

/** The parents that reach no declaration, with the reason (targets.ts: UnresolvedReason). */
export function unresolvedHeritage(heritage: Heritage): UnresolvedHeritage[] {
  return heritage.classes.flatMap(({ file, name, extends: base, implements: interfaces }) => {
    const references: { relation: UnresolvedHeritage['relation']; reference: HeritageReference }[] =
      interfaces.map((reference) => ({ relation: 'implements', reference }));
    if (base !== null) references.unshift({ relation: 'extends', reference: base });
    return references.flatMap(({ relation, reference: { written, target } }) =>
      target.kind === 'unresolved'
        ? [{ file, name, relation, written, reason: target.reason, detail: target.detail }]
        : [],
    );
  });
}

export function keyOf(declaration: DeclarationRef): string {
  return `${declaration.file}\u0000${declaration.name}`;
}
