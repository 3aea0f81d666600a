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

/** Settings under one `prefix` that move the gate the same way, their names split by spaces. */
function settings(
  direction: SettingDirection,
  prefix: string,
  names: string,
): [string, SettingDirection][] {
  return names.split(' ').map((name) => [`${prefix}.${name}`, direction]);
}

/**
 * Every leaf setting of schemas/policy.schema.json, by its dotted path. A test fails when the
 * schema gains a key this table lacks; a path missing here is treated as loosening.
 */
export const SETTING_DIRECTIONS: ReadonlyMap<string, SettingDirection> = new Map([
  ['version', NEUTRAL],
  ['project.name', NEUTRAL],
  // Budgets are sized from these at init only; a change is judged by the numbers themselves.
  ...settings(NEUTRAL, 'project', 'type stack.languages stack.frameworks maturity'),
  ['project.stack.test_command', ANY],
  ...settings(
    RAISE,
    'budgets',
    'change.warn change.block core_loc.target core_loc.hard core_files core_modules new_dependencies',
  ),
  ...patternSeverities,
  ...settings(
    RAISE,
    'forbidden_patterns',
    'god_class.max_loc god_class.growth_tolerance deep_inheritance.max_depth oversized_adapter.max_loc oversized_adapter.growth_tolerance',
  ),
  ['forbidden_patterns.circular_dependency.count_type_only_imports', 'true-tightens'],
  // Any edit of a module rule (its paths, its lists, type_only_allowed) may let an import
  // through; the names below `modules` are the repository's own, so no table can list them.
  ['modules', ANY],
  ...settings(
    ANY,
    'forbidden_patterns',
    'premature_abstraction.min_implementations premature_abstraction.core_interfaces event_bus.min_subscribers',
  ),
  // A test file's severity, never above the rule's: lowering it lets more through.
  ['forbidden_patterns.unparsable_file.in_tests', SEVERITY],
  ['forbidden_patterns.oversized_adapter.adapter_globs', 'remove-loosens'],
  ...settings(
    LOWER,
    'pricing',
    'loc_added dependency.per_kloc dependency.per_transitive_package dependency.install_script abstraction file module test_code_weight generated_code_weight',
  ),
  ['pricing.loc_deleted_credit', RAISE],
  ...securityPrices,
  ...settings(LOWER, 'pricing.tool', 'tier_0 tier_1 tier_2 tier_3'),
  ['permissions.max_tier', RAISE],
  ['permissions.allowed_commands', ANY],
  ['permissions.protected_paths', 'remove-loosens'],
  ...settings(
    RAISE,
    'cost_thresholds',
    'action_warn action_block max_iterations reflect_every_actions context_tokens max_tokens_per_run max_usd_per_run max_usd_per_day max_runs_per_actor_per_day max_patch_files max_patch_bytes',
  ),
  // Simplification only proposes; it never changes a verdict.
  ...settings(
    NEUTRAL,
    'simplification',
    'enabled triggers.added_loc triggers.new_abstraction triggers.loc_budget_ratio aggressiveness target_reduction suggestions',
  ),
  // Commits a patch by itself: letting it do so is a loosening.
  ...settings(ANY, 'simplification', 'auto_commit model_assisted'),
  ...settings(ANY, 'model_provider', 'provider model planning_model base_url api_key_env'),
  ...settings(RAISE, 'model_provider', 'max_tokens timeout_seconds'),
  // Where and at what price the spend caps are counted: any change may move them.
  ...settings(ANY, 'model_provider', 'fallback breaker_failures prices'),
  ...settings(
    ANY,
    'integrations',
    'hooks.pre_commit hooks.pre_push app.check_runs app.builder app.builder_label app.allowed_bot_ids incomplete_conclusion',
  ),
  ...settings(
    NEUTRAL,
    'integrations',
    'action.comment action.annotations action.sarif app.comments',
  ),
  ...settings(
    ANY,
    'memory',
    'ledger_retention_days history_retention_days patterns_retention_days',
  ),
  // `aureus learn` only proposes a policy; what it reads never changes a verdict.
  ...settings(
    NEUTRAL,
    'learning',
    'open_pull_request window_days relax_after_overrides min_changes rework_days max_weight_factor budget_percentiles.warn budget_percentiles.block',
  ),
  ['paths.core', 'remove-loosens'],
  ...settings('add-loosens', 'paths', 'ignore tests generated'),
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
