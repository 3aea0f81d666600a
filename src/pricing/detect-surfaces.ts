import type { FileFacts, ImportFact } from '../model/facts.js';
import {
  familyOf,
  SURFACE_ORDER,
  SURFACE_RULES,
  type Surface,
  type SurfaceRule,
} from './security-surfaces.js';

/**
 * The sensitive surfaces a file touches (the table in security-surfaces.ts), each with the
 * evidence of its first matching rule ("imports child_process", "calls fetch"), in the
 * policy's surface order.
 */
export function surfacesOf(facts: FileFacts): Map<Surface, string> {
  const family = familyOf(facts.language);
  const imports = facts.imports
    .filter((fact) => !fact.typeOnly)
    .map((fact) => ({ ...fact, specifier: normalized(fact.specifier, family === 'script') }));
  const calls = new Set(facts.functions.flatMap((fn) => fn.calls));
  const found = new Map<Surface, string>();
  const reflection = facts.reflection.find(
    (fact) => fact.kind === 'eval' || fact.kind === 'new-function',
  );
  if (reflection !== undefined) {
    found.set('eval', reflection.kind === 'eval' ? 'evaluates code (eval)' : 'new Function');
  }
  for (const rule of SURFACE_RULES[family]) {
    if (found.has(rule.surface)) continue;
    const evidence = evidenceOf(rule, imports, calls);
    if (evidence !== null) found.set(rule.surface, evidence);
  }
  return new Map(
    SURFACE_ORDER.flatMap((surface) => {
      const evidence = found.get(surface);
      return evidence === undefined ? [] : [[surface, evidence] as const];
    }),
  );
}

function evidenceOf(
  rule: SurfaceRule,
  imports: readonly ImportFact[],
  calls: ReadonlySet<string>,
): string | null {
  const names = rule.names;
  if (rule.modules.length === 0) {
    const called = names?.find((name) => calls.has(name));
    return called === undefined ? null : `calls ${called}`;
  }
  const matching = imports.filter((fact) =>
    rule.modules.some((pattern) => specifierMatches(fact.specifier, pattern)),
  );
  const first = matching[0];
  if (first === undefined) return null;
  if (names === undefined) return `imports ${first.specifier}`;
  for (const fact of matching) {
    const bound = fact.bindings.find((binding) => names.includes(binding.imported));
    if (bound !== undefined) return `imports ${bound.imported} from ${fact.specifier}`;
  }
  const called = names.find((name) => calls.has(name));
  return called === undefined ? null : `imports ${first.specifier} and calls ${called}`;
}

/** The pattern rules of SurfaceRule.modules: itself, anything under it, or a `*` prefix. */
export function specifierMatches(specifier: string, pattern: string): boolean {
  if (pattern.endsWith('*')) return specifier.startsWith(pattern.slice(0, -1));
  return (
    specifier === pattern ||
    specifier.startsWith(`${pattern}/`) ||
    specifier.startsWith(`${pattern}.`)
  );
}

function normalized(specifier: string, script: boolean): string {
  return script && specifier.startsWith('node:') ? specifier.slice('node:'.length) : specifier;
}
