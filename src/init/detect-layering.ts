import { groupModules } from '../analysis/graph/policy-modules.js';
import type { CoreLayout, Inferred, Layering } from './project-intelligence.js';
import type { ImportEdge } from './project-survey.js';
import { listed, plural } from './wording.js';

/**
 * The layering the core's imports show. Layer 0 holds the modules that import no other core
 * module; each next layer the modules whose imports all land in layers below. What never fits
 * sits on an import cycle between modules, or imports one: that part of the core is tangled.
 */
export function detectLayering(
  core: CoreLayout,
  coreFiles: readonly string[],
  imports: readonly ImportEdge[],
): Inferred<Layering> {
  const { moduleOf } = groupModules(coreFiles, core.globs);
  const needs = new Map<string, Set<string>>(core.modules.map((module) => [module, new Set()]));
  for (const { from, to } of imports) {
    const a = moduleOf.get(from);
    const b = moduleOf.get(to);
    if (a !== undefined && b !== undefined && a !== b) needs.get(a)?.add(b);
  }
  const layers: string[][] = [];
  const placed = new Set<string>();
  for (;;) {
    const layer = [...needs]
      .filter(
        ([module, targets]) => !placed.has(module) && [...targets].every((t) => placed.has(t)),
      )
      .map(([module]) => module)
      .sort();
    if (layer.length === 0) break;
    layers.push(layer);
    for (const module of layer) placed.add(module);
  }
  const tangled = core.modules.filter((module) => !placed.has(module));
  const value = { layers, tangled };
  const edges = [...needs.values()].reduce((sum, targets) => sum + targets.size, 0);
  if (core.modules.length <= 1) {
    return { value, reason: `${plural(core.modules.length, 'module')}: no layering to see` };
  }
  if (edges === 0) {
    return { value, reason: `${plural(core.modules.length, 'module')}, none importing another` };
  }
  const shown = layers.map((layer) => `[${listed(layer.map(short), 3)}]`).join(' ← ');
  if (tangled.length === 0) {
    return {
      value,
      reason: `${plural(layers.length, 'layer')}, each importing only those below: ${shown}`,
    };
  }
  const clean = layers.length === 0 ? 'no module stands on its own' : `layered below: ${shown}`;
  return {
    value,
    reason: `${listed(tangled.map(short))} import each other in a cycle or sit above one; ${clean}`,
  };
}

/** `src/model` → `model`: the core root repeats in every name. */
function short(module: string): string {
  const slash = module.lastIndexOf('/');
  return slash === -1 ? module : module.slice(slash + 1);
}
