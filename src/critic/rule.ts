import type { ModuleGraph } from '../analysis/graph/module-graph.js';
import type { PolicyModules } from '../analysis/graph/policy-modules.js';
import type { AbstractionImplementations } from '../analysis/semantics/implementations.js';
import type { ClassInheritance } from '../analysis/semantics/inheritance-depth.js';
import type { FileFacts } from '../model/facts.js';
import type { Finding } from '../model/finding.js';
import type { ForbiddenPatternId, Policy } from '../model/policy.js';

/**
 * One snapshot of a repository as the critic reads it: the whole-repository analysis
 * (src/scan/analyze-repository.ts returns a superset of this). Files under
 * `paths.ignore` are already left out of every field.
 */
export interface ProjectState {
  readonly facts: ReadonlyMap<string, FileFacts>;
  /**
   * The file-level import graph, every import kept (type-only ones included). Rules that need
   * to know who imports whom (a cycle's first import, an event bus's subscribers) read it here
   * rather than guessing from specifiers.
   */
  readonly graph: ModuleGraph;
  /** Import cycles as strongly connected components, already filtered by the policy's type-only setting. */
  readonly cycles: readonly (readonly string[])[];
  readonly modules: PolicyModules;
  readonly implementations: readonly AbstractionImplementations[];
  readonly inheritance: readonly ClassInheritance[];
}

/** What a change adds that only a change can tell (absent when a whole repository is checked). */
export interface ChangeContext {
  /** Names of direct dependencies the change adds to a manifest (package.json, go.mod, …). */
  readonly addedDependencies: readonly string[];
}

export interface RuleContext extends ChangeRuleContext {
  readonly project: ProjectState;
}

/**
 * What a rule that reads only the change is given: no snapshot, so that its findings can join
 * the snapshot rules' findings kept from an earlier run (withChangeFindings).
 */
export interface ChangeRuleContext {
  readonly policy: Policy;
  readonly change?: ChangeContext;
}

/**
 * A forbidden-pattern rule: a plain object in the registry, pure, one file each.
 *
 * `check` returns findings at the severity the rule itself gives them: `error`, or `warn` for a
 * finding the rule never lets block (loc_budget past its target only). runCritic then caps
 * that at the policy's severity, so `warn` in the policy makes every finding of the rule a
 * warning; a rule set to `off` is not run at all.
 */
export interface Rule<Context extends ChangeRuleContext = RuleContext> {
  readonly id: ForbiddenPatternId;
  /** What the rule reports, for help texts and SARIF rule descriptions. */
  readonly description: string;
  /**
   * `file`: each finding is located in one file, and the findings in a file follow from that
   * file's path and facts and its path kinds alone, so an analysis of the next tree (the same
   * import graph, the same policy) re-runs the rule only for the files whose facts changed
   * (kept-findings.ts). Absent: the rule reads more than one file and runs whole every time.
   */
  readonly scope?: 'file';
  check(context: Context): Finding[];
}
