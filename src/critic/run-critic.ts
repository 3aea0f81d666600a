import { compareStrings } from '../analysis/graph/module-graph.js';
import type { Finding } from '../model/finding.js';
import type { Policy } from '../model/policy.js';
import { type FindingsKeeper, keptRuleCheck } from './kept-findings.js';
import type { ChangeContext, ChangeRuleContext, ProjectState, Rule, RuleContext } from './rule.js';
import { circularDependency } from './rules/circular-dependency.js';
import { fileBudget, locBudget, moduleBudget } from './rules/core-budgets.js';
import { deepInheritance } from './rules/deep-inheritance.js';
import { dependencyBudget } from './rules/dependency-budget.js';
import { diContainer } from './rules/di-container.js';
import { eventBus } from './rules/event-bus.js';
import { forbiddenDependency } from './rules/forbidden-dependency.js';
import { globalMutableState } from './rules/global-mutable-state.js';
import { godClass } from './rules/god-class.js';
import { oversizedAdapter } from './rules/oversized-adapter.js';
import { pluginRegistry } from './rules/plugin-registry.js';
import { prematureAbstraction } from './rules/premature-abstraction.js';
import { reflection } from './rules/reflection.js';
import { singleBackendRepository } from './rules/single-backend-repository.js';
import { unparsableFile } from './rules/unparsable-file.js';

/**
 * Runs every rule the policy does not turn `off` and returns their findings, each at the
 * policy's severity (a rule's own `warn` stays a warning, see Rule), sorted by path, line,
 * rule id, then symbol: repository-wide findings (no location) first. Pure and deterministic:
 * the same context gives the same list in every surface. With a `keeper`, the file-scope rules
 * re-run only on the files changed since the keeper's last snapshot (kept-findings.ts).
 */
export function runCritic(context: RuleContext, keeper?: FindingsKeeper): Finding[] {
  const { project, policy } = context;
  const known = snapshotFindings.get(project);
  const ofSnapshot =
    known?.policy === policy
      ? known.findings
      : findingsOf(
          SNAPSHOT_RULES,
          { project, policy },
          keeper === undefined ? undefined : keptRuleCheck(keeper, { project, policy }),
        );
  snapshotFindings.set(project, { policy, findings: ofSnapshot });
  return [...ofSnapshot, ...findingsOf(CHANGE_RULES, context)].sort(compareFindings);
}

/**
 * runCritic's answer from the findings of its snapshot rules, kept from an earlier run on the
 * same snapshot under the same policy (runCritic without a change gives exactly those): only the
 * rules that read the change run, and they read nothing of the snapshot.
 */
export function withChangeFindings(
  ofSnapshot: readonly Finding[],
  policy: Policy,
  change: ChangeContext | undefined,
): Finding[] {
  const context = change === undefined ? { policy } : { policy, change };
  return [...ofSnapshot, ...findingsOf(CHANGE_RULES, context)].sort(compareFindings);
}

/** `check`: how each rule is run, its own check of `context` unless told otherwise. */
function findingsOf<Context extends ChangeRuleContext>(
  rules: readonly Rule<Context>[],
  context: Context,
  check: (rule: Rule<Context>) => Finding[] = (rule) => rule.check(context),
): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    const severity = context.policy.forbidden_patterns[rule.id].severity;
    if (severity === 'off') continue;
    for (const finding of check(rule)) {
      findings.push(severity === 'warn' ? { ...finding, severity } : finding);
    }
  }
  return findings;
}

/**
 * The findings of the rules that read the snapshot alone, by snapshot and policy: a check reads
 * those of its head twice (for its verdict, and for the head it keeps as the next commit's
 * base), and neither an analysis nor a policy changes once made.
 */
const snapshotFindings = new WeakMap<
  ProjectState,
  { readonly policy: Policy; readonly findings: readonly Finding[] }
>();

function compareFindings(a: Finding, b: Finding): number {
  return (
    compareStrings(a.location?.path ?? '', b.location?.path ?? '') ||
    (a.location?.startLine ?? 0) - (b.location?.startLine ?? 0) ||
    compareStrings(a.ruleId, b.ruleId) ||
    compareStrings(a.symbol, b.symbol)
  );
}

/**
 * Every rule the critic runs, in the order of `forbidden_patterns` in the policy schema.
 * Shared conventions (each rule's doc comment says where it departs from them): a rule reports
 * places in product files only, never tests or generated code (PathKinds.isProduct; cycles
 * and unparsable files excepted); "more than the limit" is a finding, exactly the limit is not; a symbol never
 * holds a line number (fingerprintOf in finding-of.ts).
 */
export const RULES: readonly Rule[] = [
  godClass,
  deepInheritance,
  circularDependency,
  forbiddenDependency,
  globalMutableState,
  reflection,
  prematureAbstraction,
  diContainer,
  pluginRegistry,
  eventBus,
  singleBackendRepository,
  oversizedAdapter,
  dependencyBudget,
  moduleBudget,
  fileBudget,
  locBudget,
  unparsableFile,
];

/** The rules that read what only a change can tell (RuleContext.change), never the snapshot. */
const CHANGE_RULES: readonly Rule<ChangeRuleContext>[] = [dependencyBudget];
const SNAPSHOT_RULES = RULES.filter((rule) => !CHANGE_RULES.includes(rule));
