import { isRecord } from '../model/json.js';
import type { Policy } from '../model/policy.js';
import { SURFACE_ORDER } from '../pricing/security-surfaces.js';
import { policySchema } from './policy-schema.generated.js';
import { schemaAt } from './schema-node.js';

/**
 * How changing a setting moves the gate. `raise-loosens`: a bigger number lets more through (a
 * budget, a threshold); `lower-loosens`: a smaller one does (a price, a weight); `severity`:
 * error → warn → off loosens; `add-loosens`: more globs judge less code (ignored, tests);
 * `remove-loosens`: fewer globs judge less (core, protected paths); `true-tightens`: turning it on
 * judges more; `neutral`: no effect on any verdict; `any-loosens`: a change either way counts
 * as loosening (the direction is not obvious, so it fails closed).
 */
export type SettingDirection =
  | 'raise-loosens'
  | 'lower-loosens'
  | 'severity'
  | 'add-loosens'
  | 'remove-loosens'
  | 'true-tightens'
  | 'neutral'
  | 'any-loosens';

const RAISE: SettingDirection = 'raise-loosens';
const LOWER: SettingDirection = 'lower-loosens';
const SEVERITY: SettingDirection = 'severity';
const ANY: SettingDirection = 'any-loosens';
const NEUTRAL: SettingDirection = 'neutral';

// Every rule's severity, for whichever rules the schema holds.
const patternSeverities = Object.keys(
  schemaAt(policySchema, ['forbidden_patterns'])?.properties ?? {},
).map((rule): [string, SettingDirection] => [`forbidden_patterns.${rule}.severity`, SEVERITY]);

const securityPrices = SURFACE_ORDER.map((kind): [string, SettingDirection] => [
  `pricing.security.${kind}`,
  LOWER,
]);

const toolPrices = ['tier_0', 'tier_1', 'tier_2', 'tier_3'].map(
  (tier): [string, SettingDirection] => [`pricing.tool.${tier}`, LOWER],
);

/**
 * Every leaf setting of schemas/policy.schema.json, by its dotted path. A test fails when the
 * schema gains a key this table lacks; a path missing here is treated as loosening.
 */
export const SETTING_DIRECTIONS: ReadonlyMap<string, SettingDirection> = new Map([
  ['version', NEUTRAL],
  ['project.name', NEUTRAL],
  // Budgets are sized from these at init only; a change is judged by the numbers themselves.
  ['project.type', NEUTRAL],
  ['project.stack.languages', NEUTRAL],
  ['project.stack.frameworks', NEUTRAL],
  ['project.stack.test_command', ANY],
  ['project.maturity', NEUTRAL],
  ['budgets.change.warn', RAISE],
  ['budgets.change.block', RAISE],
  ['budgets.core_loc.target', RAISE],
  ['budgets.core_loc.hard', RAISE],
  ['budgets.core_files', RAISE],
  ['budgets.core_modules', RAISE],
  ['budgets.new_dependencies', RAISE],
  ...patternSeverities,
  ['forbidden_patterns.god_class.max_loc', RAISE],
  ['forbidden_patterns.god_class.growth_tolerance', RAISE],
  ['forbidden_patterns.deep_inheritance.max_depth', RAISE],
  ['forbidden_patterns.circular_dependency.count_type_only_imports', 'true-tightens'],
  // Any edit of a module rule (its paths, its lists, type_only_allowed) may let an import
  // through; the names below `modules` are the repository's own, so no table can list them.
  ['modules', ANY],
  ['forbidden_patterns.premature_abstraction.min_implementations', ANY],
  ['forbidden_patterns.premature_abstraction.core_interfaces', ANY],
  ['forbidden_patterns.event_bus.min_subscribers', ANY],
  ['forbidden_patterns.oversized_adapter.max_loc', RAISE],
  ['forbidden_patterns.oversized_adapter.growth_tolerance', RAISE],
  // A test file's severity, never above the rule's: lowering it lets more through.
  ['forbidden_patterns.unparsable_file.in_tests', SEVERITY],
  ['forbidden_patterns.oversized_adapter.adapter_globs', 'remove-loosens'],
  ['pricing.loc_added', LOWER],
  ['pricing.loc_deleted_credit', RAISE],
  ['pricing.dependency.per_kloc', LOWER],
  ['pricing.dependency.per_transitive_package', LOWER],
  ['pricing.dependency.install_script', LOWER],
  ['pricing.abstraction', LOWER],
  ...securityPrices,
  ['pricing.file', LOWER],
  ['pricing.module', LOWER],
  ...toolPrices,
  ['pricing.test_code_weight', LOWER],
  ['pricing.generated_code_weight', LOWER],
  ['permissions.max_tier', RAISE],
  ['permissions.allowed_commands', ANY],
  ['permissions.protected_paths', 'remove-loosens'],
  ['cost_thresholds.action_warn', RAISE],
  ['cost_thresholds.action_block', RAISE],
  ['cost_thresholds.max_iterations', RAISE],
  ['cost_thresholds.reflect_every_actions', RAISE],
  ['cost_thresholds.context_tokens', RAISE],
  ['cost_thresholds.max_tokens_per_run', RAISE],
  ['cost_thresholds.max_usd_per_run', RAISE],
  ['cost_thresholds.max_usd_per_day', RAISE],
  ['cost_thresholds.max_runs_per_actor_per_day', RAISE],
  ['cost_thresholds.max_patch_files', RAISE],
  ['cost_thresholds.max_patch_bytes', RAISE],
  // Simplification only proposes; it never changes a verdict.
  ['simplification.enabled', NEUTRAL],
  ['simplification.triggers.added_loc', NEUTRAL],
  ['simplification.triggers.new_abstraction', NEUTRAL],
  ['simplification.triggers.loc_budget_ratio', NEUTRAL],
  ['simplification.aggressiveness', NEUTRAL],
  ['simplification.target_reduction', NEUTRAL],
  ['simplification.suggestions', NEUTRAL],
  // Commits a patch by itself: letting it do so is a loosening.
  ['simplification.auto_commit', ANY],
  ['simplification.model_assisted', ANY],
  ['model_provider.provider', ANY],
  ['model_provider.model', ANY],
  ['model_provider.planning_model', ANY],
  ['model_provider.base_url', ANY],
  ['model_provider.api_key_env', ANY],
  ['model_provider.max_tokens', RAISE],
  ['model_provider.timeout_seconds', RAISE],
  // Where and at what price the spend caps are counted: any change may move them.
  ['model_provider.fallback', ANY],
  ['model_provider.breaker_failures', ANY],
  ['model_provider.prices', ANY],
  ['integrations.hooks.pre_commit', ANY],
  ['integrations.hooks.pre_push', ANY],
  ['integrations.action.comment', NEUTRAL],
  ['integrations.action.annotations', NEUTRAL],
  ['integrations.action.sarif', NEUTRAL],
  ['integrations.app.check_runs', ANY],
  ['integrations.app.comments', NEUTRAL],
  ['integrations.app.builder', ANY],
  ['integrations.app.builder_label', ANY],
  ['integrations.app.allowed_bot_ids', ANY],
  ['integrations.incomplete_conclusion', ANY],
  ['memory.ledger_retention_days', ANY],
  ['memory.history_retention_days', ANY],
  ['memory.patterns_retention_days', ANY],
  // `aureus learn` only proposes a policy; what it reads never changes a verdict.
  ['learning.open_pull_request', NEUTRAL],
  ['learning.window_days', NEUTRAL],
  ['learning.relax_after_overrides', NEUTRAL],
  ['learning.min_changes', NEUTRAL],
  ['learning.rework_days', NEUTRAL],
  ['learning.max_weight_factor', NEUTRAL],
  ['learning.budget_percentiles.warn', NEUTRAL],
  ['learning.budget_percentiles.block', NEUTRAL],
  ['paths.core', 'remove-loosens'],
  ['paths.ignore', 'add-loosens'],
  ['paths.tests', 'add-loosens'],
  ['paths.generated', 'add-loosens'],
]);

const SEVERITY_RANK: Readonly<Record<string, number>> = { error: 2, warn: 1, off: 0 };

/** The settings two effective policies disagree on, split by how each moves the gate. */
export interface PolicyDirection {
  readonly loosens: string[];
  readonly tightens: string[];
  readonly neutral: string[];
}

/** Classifies every changed leaf setting; an unknown path or direction counts as loosening. */
export function classifyPolicyChange(before: Policy, after: Policy): PolicyDirection {
  const result: PolicyDirection = { loosens: [], tightens: [], neutral: [] };
  for (const setting of changedSettings(before, after)) {
    const kind = SETTING_DIRECTIONS.get(setting.path) ?? ANY;
    result[direction(kind, setting.before, setting.after)].push(setting.line);
  }
  return result;
}

/**
 * The settings two policies disagree on, as `path: before → after` lines, for the
 * "policy change — needs maintainer approval" notice. Compares effective policies (defaults
 * filled), so moving a default into the file is not a change.
 */
export function diffPolicies(before: Policy, after: Policy): string[] {
  return changedSettings(before, after).map((setting) => setting.line);
}

interface ChangedSetting {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
  /** `path: before → after`, as the notice and the approval show it. */
  readonly line: string;
}

/** The leaf settings whose values differ, in the order of their sorted dotted paths. */
function changedSettings(
  before: unknown,
  after: unknown,
  path = '',
  changed: ChangedSetting[] = [],
): ChangedSetting[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys)
      changedSettings(before[key], after[key], path === '' ? key : `${path}.${key}`, changed);
    return changed;
  }
  const was = JSON.stringify(before);
  const now = JSON.stringify(after);
  if (was !== now)
    changed.push({ path, before, after, line: `${path}: ${was ?? 'unset'} → ${now ?? 'unset'}` });
  return changed;
}

function direction(kind: SettingDirection, before: unknown, after: unknown): keyof PolicyDirection {
  if (kind === 'neutral') return 'neutral';
  if (kind === 'raise-loosens' || kind === 'lower-loosens') {
    if (typeof before !== 'number' || typeof after !== 'number') return 'loosens';
    const raised = after > before;
    return raised === (kind === 'raise-loosens') ? 'loosens' : 'tightens';
  }
  if (kind === 'severity') {
    const was = SEVERITY_RANK[String(before)];
    const now = SEVERITY_RANK[String(after)];
    if (was === undefined || now === undefined) return 'loosens';
    return now < was ? 'loosens' : 'tightens';
  }
  if (kind === 'true-tightens') return before === false && after === true ? 'tightens' : 'loosens';
  if (kind === 'add-loosens' || kind === 'remove-loosens') {
    if (!Array.isArray(before) || !Array.isArray(after)) return 'loosens';
    const added = after.some((glob) => !before.includes(glob));
    const removed = before.some((glob) => !after.includes(glob));
    const loosened = kind === 'add-loosens' ? added : removed;
    return loosened ? 'loosens' : 'tightens';
  }
  return 'loosens';
}
