import type { ClassFact, FileFacts, FunctionFact, ReflectionKind } from '../../model/facts.js';
import type { Finding } from '../../model/finding.js';
import { findingsPerFile, lineLocation, placeFinding, spanLocation } from '../finding-of.js';
import { pathKinds } from '../path-kinds.js';
import type { Rule } from '../rule.js';
import { distinctlyNamed, ordinallyNamed, REFLECTION_WORDING } from '../symbols.js';

/** Reflection that loads code chosen at run time: how plugins get in. */
const LOADING_KINDS: ReadonlySet<ReflectionKind> = new Set([
  'dynamic-import',
  'dynamic-require',
  'dunder-import',
]);

/** `registerPlugin`, `registerAuthPlugins`, `register_plugin`, `RegisterPlugin` (Go). */
const REGISTERS_PLUGIN = /^register.*plugin/i;
/** `loadPlugin`, `loadPlugins`, `load_plugin`, `LoadPlugin`. */
const LOADS_PLUGIN = /^load_?plugin/i;
const REGISTRY_NAME = /Registry$/;

/**
 * Plugin machinery in a core file (PathKinds.isCore), any of:
 * - loading code whose name is computed at run time: reflection of kind `dynamic-import`,
 *   `dynamic-require` or `dunder-import` (a literal `import('x')` is an ordinary import).
 *   Symbol: the same `kind:n` as the reflection rule gives it, location its line;
 * - a class named `*Registry` with a `register` method (FunctionFact `Registry.register`).
 *   Symbol: the class name, location its span;
 * - a function or method whose own name (after `Class.`) starts with `register…Plugin` or
 *   `loadPlugin`, in any case, `_` allowed (`register_plugin`, `LoadPlugin`), unless it is a
 *   method of a registry already reported. Symbol: its name (`Class.method`), location its span.
 * Names are a convention, not proof: a registry called `Catalog` is not seen.
 */
export const pluginRegistry: Rule = {
  id: 'plugin_registry',
  scope: 'file',
  description: 'A plugin registry or dynamic module loading in the core (paths.core).',
  check({ policy, project }) {
    return findingsPerFile(project, pathKinds(policy, project).isCore, (path, facts) => {
      const registries = registryClasses(facts);
      return [
        ...dynamicLoading(path, facts),
        ...registries.map((cls) => registryFinding(path, cls)),
        ...pluginFunctions(path, facts, new Set(registries.map((cls) => cls.name))),
      ];
    });
  },
};

function dynamicLoading(path: string, facts: FileFacts): Finding[] {
  // Named over all of the file's reflection, so the symbol is the reflection rule's own.
  return ordinallyNamed(facts.reflection, (fact) => fact.kind)
    .filter(({ item }) => LOADING_KINDS.has(item.kind))
    .map(({ item, symbol }) =>
      placeFinding(
        'plugin_registry',
        lineLocation(path, item.line),
        symbol,
        `core file ${path} loads code through ${REFLECTION_WORDING[item.kind]} on line ${item.line}`,
      ),
    );
}

function registryClasses(facts: FileFacts): ClassFact[] {
  const methods = new Set(facts.functions.map((fn) => fn.name));
  const seen = new Set<string>();
  return facts.classes.filter((cls) => {
    if (seen.has(cls.name) || !REGISTRY_NAME.test(cls.name)) return false;
    seen.add(cls.name);
    return methods.has(`${cls.name}.register`);
  });
}

function registryFinding(path: string, cls: ClassFact): Finding {
  return placeFinding(
    'plugin_registry',
    spanLocation(path, cls.span),
    cls.name,
    `class ${cls.name} in core file ${path} is a registry: it has a register method`,
  );
}

function pluginFunctions(
  path: string,
  facts: FileFacts,
  registries: ReadonlySet<string>,
): Finding[] {
  const loaders = facts.functions.filter((fn) => {
    const { owner, own } = splitName(fn);
    if (owner !== null && registries.has(owner)) return false;
    return REGISTERS_PLUGIN.test(own) || LOADS_PLUGIN.test(own);
  });
  return distinctlyNamed(loaders, (fn) => fn.name).map(({ item: fn, symbol }) =>
    placeFinding(
      'plugin_registry',
      spanLocation(path, fn.span),
      symbol,
      `${fn.kind === 'method' ? 'method' : 'function'} ${fn.name} in core file ${path} registers or loads plugins`,
    ),
  );
}

/** `Registry.register` → owner `Registry`, own `register`; `loadPlugins` → no owner. */
function splitName(fn: FunctionFact): { owner: string | null; own: string } {
  const dot = fn.name.lastIndexOf('.');
  return dot === -1
    ? { owner: null, own: fn.name }
    : { owner: fn.name.slice(0, dot), own: fn.name.slice(dot + 1) };
}
