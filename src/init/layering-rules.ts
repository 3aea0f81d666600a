import { moduleGlob } from '../analysis/graph/policy-modules.js';
import type { Module } from '../model/policy.generated.js';
import type { CoreLayout, Inferred, Layering } from './project-intelligence.js';
import { listed } from './wording.js';

/** A `modules` entry as init writes it, each with the reason for it. */
export type LayeringRules = ReadonlyMap<string, Inferred<Module>>;

/** Folder names glob syntax would read as a pattern: such a module gets no rule. */
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/**
 * The layering init detected, as `modules` rules that hold today: a module of a layer may not
 * import the modules above it (higher layers, and the tangled modules, which sit on or above
 * a cycle and so above every layer). Type-only imports are allowed, because the layering was
 * read from the imports that run. Empty when no module has anything above it to forbid (one
 * layer, or none).
 */
export function layeringRules(core: CoreLayout, layering: Layering): LayeringRules {
  const { layers, tangled } = layering;
  const usable = (module: string) => !GLOB_SYNTAX.test(module);
  const names = moduleNames([...layers.flat(), ...tangled].filter(usable));
  const above = (index: number) => [...layers.slice(index + 1).flat(), ...tangled].filter(usable);
  if (layers.length === 0 || above(0).length === 0) return new Map();
  const rules = new Map<string, Inferred<Module>>();
  const nameOf = (module: string) => names.get(module) ?? module;
  const paths = (module: string): [string] => [moduleGlob(module, core.globs)];
  layers.forEach((layer, index) => {
    const higher = above(index).map(nameOf);
    for (const module of layer.filter(usable)) {
      const where = `layer ${index + 1} of ${layers.length}`;
      rules.set(nameOf(module), {
        value:
          higher.length === 0
            ? { paths: paths(module) }
            : { paths: paths(module), may_not_import: higher, type_only_allowed: true },
        reason:
          higher.length === 0
            ? `${where}, the top: may import any module below it`
            : `${where}: imports nothing above it today, so it may not import ${listed(higher)} (types alone excepted: they do not run)`,
      });
    }
  });
  for (const module of tangled.filter(usable)) {
    rules.set(nameOf(module), {
      value: { paths: paths(module) },
      reason:
        'on or above an import cycle between modules: no layer holds it, so no rule of its own',
    });
  }
  return rules;
}

/**
 * A readable name per module: its last folder (`src/model` → `model`) where that is unique,
 * else its whole path; characters a name may not hold (the policy's `.` separates keys) become
 * `-`. Cleaning can make two folders one name (`src/v4.mini` and `src/v4-mini` both read
 * `src-v4-mini`), and a rule naming one module twice does not load, so a name already given
 * takes a number (`src-v4-mini-2`).
 */
function moduleNames(modules: readonly string[]): ReadonlyMap<string, string> {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+/, '_');
  const whole = (module: string) => clean(module === '.' ? 'root' : module);
  const short = (module: string) => whole(module.split('/').at(-1) ?? module);
  const counts = new Map<string, number>();
  for (const module of modules) counts.set(short(module), (counts.get(short(module)) ?? 0) + 1);
  const names = new Map<string, string>();
  const given = new Set<string>();
  for (const module of new Set(modules)) {
    const readable = counts.get(short(module)) === 1 ? short(module) : whole(module);
    let name = readable;
    for (let number = 2; given.has(name); number += 1) name = `${readable}-${number}`;
    given.add(name);
    names.set(module, name);
  }
  return names;
}
