import type { Resolution } from '../../../src/analysis/resolve/resolution.js';
import type { ImportFact } from '../../../src/model/facts.js';

/** An import fact with the flags a test cares about; the rest default to a plain static import. */
export function importOf(specifier: string, flags: Partial<ImportFact> = {}): ImportFact {
  const typeOnly = flags.typeOnly ?? false;
  return {
    specifier,
    typeOnly,
    reexport: false,
    dynamic: false,
    keptWhen: typeOnly ? [] : ['always'],
    bindings: [],
    line: 1,
    ...flags,
  };
}

/** Specifiers in these tests are the target paths themselves; `pkg:` ones are packages. */
export function resolveByName(_from: string, specifier: string): Resolution {
  if (specifier.startsWith('pkg:')) return { kind: 'external', packageName: specifier.slice(4) };
  if (specifier === 'missing') return { kind: 'unresolved' };
  return { kind: 'file', path: specifier };
}

/** `{ 'a.ts': ['b.ts'] }` → files whose imports are plain static imports of those paths. */
export function filesOf(
  imports: Record<string, readonly (string | ImportFact)[]>,
): Map<string, readonly ImportFact[]> {
  return new Map(
    Object.entries(imports).map(([path, list]) => [
      path,
      list.map((entry) => (typeof entry === 'string' ? importOf(entry) : entry)),
    ]),
  );
}
