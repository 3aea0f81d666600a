import { compareStrings } from '../analysis/graph/module-graph.js';
import { pathKinds } from './path-kinds.js';
import type { RuleContext } from './rule.js';

/** The size of the core that the budgets hold: its files, their code lines, their modules. */
export interface CoreSize {
  readonly files: number;
  /** Sum of FileFacts `loc` over the core files. */
  readonly loc: number;
  readonly modules: number;
}

/**
 * The core's size as the module, file and LOC budgets measure it; exposed so the reflexion pass
 * (due at a share of budgets.core_loc.target) and reports measure the same thing.
 */
export function coreSize(context: RuleContext): CoreSize {
  const files = coreFiles(context);
  let loc = 0;
  for (const path of files) loc += context.project.facts.get(path)?.loc ?? 0;
  return { files: files.length, loc, modules: modulesOf(files, context).length };
}

/** The core files (PathKinds.isCore: under `paths.core`, neither test nor generated), sorted. */
export function coreFiles({ policy, project }: RuleContext): string[] {
  const { isCore } = pathKinds(policy, project);
  return [...project.facts.keys()].filter(isCore).sort(compareStrings);
}

/**
 * The policy modules that hold at least one core file, sorted. A module holding only tests or
 * generated code (a `src/__tests__` folder under `src/**`) is not counted, as its files are not.
 */
export function coreModules(context: RuleContext): string[] {
  return modulesOf(coreFiles(context), context);
}

function modulesOf(files: readonly string[], { project }: RuleContext): string[] {
  const modules = new Set<string>();
  for (const path of files) {
    const module = project.modules.moduleOf.get(path);
    if (module !== undefined) modules.add(module);
  }
  return [...modules].sort(compareStrings);
}
