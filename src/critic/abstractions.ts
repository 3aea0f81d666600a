import type { AbstractionImplementations } from '../analysis/semantics/implementations.js';
import type { AbstractionKind } from '../model/facts.js';
import type { FindingLocation } from '../model/finding.js';
import { lineLocation, spanLocation } from './finding-of.js';
import type { ProjectState } from './rule.js';
import { listed } from './wording.js';

/**
 * Whether an abstraction is used as one: an abstract class always (it exists to be extended);
 * an interface or protocol only when at least one class names it in `implements`/`extends`,
 * directly or below a class that does. Real TypeScript declares many interfaces that no class
 * implements: they describe data (options, results, JSON) and are types, not abstractions, so
 * counting their implementations would report nearly every one of them.
 */
export function isUsedAsContract(abstraction: AbstractionImplementations): boolean {
  return abstraction.kind === 'abstract-class' || abstraction.all.length > 0;
}

export function abstractionLocation(
  project: ProjectState,
  { file, name }: AbstractionImplementations,
): FindingLocation {
  const declared = project.facts.get(file)?.abstractions.find((fact) => fact.name === name);
  return declared === undefined ? lineLocation(file, 1) : spanLocation(file, declared.span);
}

const KIND_WORDING: Readonly<Record<AbstractionKind, string>> = {
  interface: 'interface',
  'abstract-class': 'abstract class',
  protocol: 'protocol',
};

/** `interface Store has 1 concrete implementation (MemoryStore)`. */
export function implementationsSentence(abstraction: AbstractionImplementations): string {
  const { concrete } = abstraction;
  const subject = `${KIND_WORDING[abstraction.kind]} ${abstraction.name}`;
  if (concrete.length === 0) return `${subject} has no concrete implementation`;
  const names = listed(concrete.map((implementation) => implementation.name));
  const noun = concrete.length === 1 ? 'implementation' : 'implementations';
  return `${subject} has ${concrete.length} concrete ${noun} (${names})`;
}
