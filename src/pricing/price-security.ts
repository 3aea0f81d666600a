import type { CostItem } from '../model/cost.js';
import type { FileFacts, ImportBinding, ImportFact, ReflectionKind } from '../model/facts.js';
import type { Policy } from '../model/policy.js';
import { type PricedPart, roundPoints } from './points.js';
import type { PricedFile } from './priced-files.js';
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

const DYNAMIC_CODE: Partial<Record<ReflectionKind, string>> = {
  eval: 'evaluates code (eval)',
  'new-function': 'new Function',
  'dynamic-require': 'loads a module named at run time (require)',
  'dunder-import': 'loads a module named at run time (__import__)',
};

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
  // A module loaded by a name made at run time is code the analysis cannot name: it may be any
  // surface at all, so it is priced as code evaluated at run time.
  const reflection = facts.reflection.find((fact) => fact.kind in DYNAMIC_CODE);
  if (reflection !== undefined) found.set('eval', DYNAMIC_CODE[reflection.kind] ?? '');
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

/**
 * What a callee (FileFacts.qualifiedCalls) may stand for, from its root name: `module` is the
 * specifier the root was imported from (`node:` dropped), or null for a global; `path` the
 * names after the module. `fsp.rm` with `import { promises as fsp } from 'fs'` →
 * `{ module: 'fs', path: ['promises', 'rm'] }`; `fetch` unbound → `{ module: null, path: ['fetch'] }`.
 */
interface ResolvedCall {
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
function resolveCalls(facts: FileFacts, family: LanguageFamily): ResolvedCall[] {
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
function moduleName(specifier: string, family: LanguageFamily): string {
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
