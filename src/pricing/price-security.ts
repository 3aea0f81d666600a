import type { CostItem } from '../model/cost.js';
import type { FileFacts } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { type PricedPart, roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';
import { moduleName, type ResolvedCall, resolveCalls } from './resolve-calls.js';
import {
  familyOf,
  type LanguageFamily,
  SURFACE_ORDER,
  SURFACE_RULES,
  type Surface,
  type SurfaceRule,
} from './security-surfaces.js';

/** An import as the rules read it: its module, and the names it imports by name. */
interface ImportedModule {
  readonly module: string;
  readonly names: readonly string[];
}

/** What a file's facts offer the rules, read once. */
interface Touches {
  readonly family: LanguageFamily;
  readonly imports: readonly ImportedModule[];
  readonly calls: readonly ResolvedCall[];
  /** The last name of every callee (FunctionFact.calls and the qualified calls). */
  readonly methods: ReadonlySet<string>;
}

/**
 * The sensitive surfaces a file touches (the table in security-surfaces.ts), each with the
 * evidence of its first matching rule ("imports child_process", "calls fs.writeFileSync"), in
 * the policy's surface order.
 */
export function surfacesOf(facts: FileFacts): Map<Surface, string> {
  const family = familyOf(facts.language);
  const touches: Touches = {
    family,
    imports: importedModules(facts, family),
    calls: resolveCalls(facts, family),
    methods: new Set([
      ...facts.functions.flatMap((fn) => fn.calls),
      ...facts.qualifiedCalls.map((callee) => callee.slice(callee.lastIndexOf('.') + 1)),
    ]),
  };
  const found = new Map<Surface, string>();
  const reflection = facts.reflection.find(
    (fact) => fact.kind === 'eval' || fact.kind === 'new-function',
  );
  if (reflection !== undefined) {
    found.set('eval', reflection.kind === 'eval' ? 'evaluates code (eval)' : 'new Function');
  }
  for (const rule of SURFACE_RULES[family]) {
    if (found.has(rule.surface)) continue;
    const evidence = evidenceOf(rule, touches);
    if (evidence !== null) found.set(rule.surface, evidence);
  }
  return new Map(
    SURFACE_ORDER.flatMap((surface) => {
      const evidence = found.get(surface);
      return evidence === undefined ? [] : [[surface, evidence] as const];
    }),
  );
}

function evidenceOf(rule: SurfaceRule, touches: Touches): string | null {
  switch (rule.kind) {
    case 'module': {
      const imported = touches.imports.find(({ module }) => matchesAny(module, rule.modules));
      if (imported !== undefined) return `imports ${imported.module}`;
      const called = firstCall(touches, rule.modules, () => true);
      return called === undefined ? null : `calls ${called}`;
    }
    case 'exports': {
      for (const { module, names } of touches.imports) {
        if (!matchesAny(module, rule.modules)) continue;
        const name = names.find((imported) => rule.names.includes(imported));
        if (name !== undefined) return `imports ${name} from ${module}`;
      }
      const called = firstCall(touches, rule.modules, (path) => isUnder(path, rule.names));
      return called === undefined ? null : `calls ${called}`;
    }
    case 'global': {
      const call = touches.calls.find(
        (candidate) => candidate.module === null && isUnder(candidate.path.join('.'), rule.names),
      );
      return call === undefined ? null : `calls ${call.path.join('.')}`;
    }
    case 'methods': {
      const via = firstCall(touches, rule.modules, (path) => rule.via.includes(path));
      const method = rule.methods.find((name) => touches.methods.has(name));
      return via === undefined || method === undefined ? null : `calls ${method} on ${via}`;
    }
  }
}

/**
 * The first call, written `module.path`, whose module matches a pattern and whose path (the
 * names after the module) passes `accepts`. Python and Java modules are dotted names, so
 * `urllib` with the path `request.urlopen` is also `urllib.request` with `urlopen`; in Java a
 * global is read the same way, as a fully qualified name (`java.io.File`). A Python global is
 * no module (a module must be imported): `socket.close()` on a parameter named `socket` is not
 * the `socket` module's.
 */
function firstCall(
  touches: Touches,
  patterns: readonly string[],
  accepts: (path: string) => boolean,
): string | undefined {
  const { family } = touches;
  for (const { module, path } of touches.calls) {
    const written = module === null ? path.join('.') : [module, ...path].join('.');
    if (module !== null && matchesAny(module, patterns) && accepts(path.join('.'))) return written;
    const dotted = family === 'java' || (family === 'python' && module !== null);
    if (!dotted) continue;
    for (const pattern of patterns) {
      if (written.startsWith(`${pattern}.`) && accepts(written.slice(pattern.length + 1))) {
        return written;
      }
    }
  }
  return undefined;
}

/** A path is a name or under one: `environ.get` is under `environ`. */
function isUnder(path: string, names: readonly string[]): boolean {
  return names.some((name) => path === name || path.startsWith(`${name}.`));
}

function importedModules(facts: FileFacts, family: LanguageFamily): ImportedModule[] {
  return facts.imports
    .filter((fact) => !fact.typeOnly)
    .flatMap((fact) => {
      const names = fact.bindings
        .map((binding) => binding.imported)
        .filter((name) => name !== '*' && name !== 'default');
      const module = moduleName(fact.specifier, family);
      // Java's `import java.io.FileWriter` imports `FileWriter` from `java.io`.
      const [single] = names;
      if (family === 'java' && single !== undefined && module.endsWith(`.${single}`)) {
        return [{ module: module.slice(0, -single.length - 1), names }];
      }
      // Python's `from urllib import request` imports the module `urllib.request`.
      const submodules = family === 'python' ? names.map((name) => `${module}.${name}`) : [];
      return [
        { module, names },
        ...submodules.map((submodule) => ({ module: submodule, names: [] })),
      ];
    });
}

function matchesAny(module: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => specifierMatches(module, pattern));
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

/**
 * The `security` category. A new touch of a sensitive surface in a file is a surface present
 * in its head facts and absent from its base facts (a rename is compared with the old path, so
 * moving a file touches nothing new; an added or copied file has an empty base). Each new touch
 * is one item costing that surface's `pricing.security` weight. A surface the base already
 * touched costs nothing however much more of it the head uses, and a surface removed earns no
 * credit: a touch is a risk to review, and removing one needs no review. Files without facts
 * touch nothing that can be seen. Path weights do not apply (the policy defines them on lines).
 */
export function priceSecurity(files: readonly PricedFile[], policy: Policy): PricedPart {
  const items: CostItem[] = [];
  for (const file of files) {
    const head = file.head?.facts;
    if (head === undefined) continue;
    const base = file.base?.facts;
    const before = base === undefined ? new Map() : surfacesOf(base);
    for (const [surface, evidence] of surfacesOf(head)) {
      if (before.has(surface)) continue;
      items.push({
        category: 'security',
        points: roundPoints(policy.pricing.security[surface]),
        path: file.path,
        detail: `new ${surface} surface: ${evidence}`,
      });
    }
  }
  return { items, notes: [] };
}
