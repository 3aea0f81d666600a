import type { Policy } from '../model/policy.js';
import type { YamlLocator } from './locate-in-yaml.js';
import type { PolicyProblem } from './policy-problem.js';

interface Ordered {
  readonly section: readonly string[];
  readonly low: string;
  readonly high: string;
  readonly read: (policy: Policy) => readonly [number, number];
}

/** Pairs of settings where the first may not exceed the second. */
const ORDERED: readonly Ordered[] = [
  {
    section: ['budgets', 'change'],
    low: 'warn',
    high: 'block',
    read: (policy) => [policy.budgets.change.warn, policy.budgets.change.block],
  },
  {
    section: ['budgets', 'core_loc'],
    low: 'target',
    high: 'hard',
    read: (policy) => [policy.budgets.core_loc.target, policy.budgets.core_loc.hard],
  },
  {
    section: ['cost_thresholds'],
    low: 'action_warn',
    high: 'action_block',
    read: (policy) => [policy.cost_thresholds.action_warn, policy.cost_thresholds.action_block],
  },
  {
    section: ['learning', 'budget_percentiles'],
    low: 'warn',
    high: 'block',
    read: (policy) => [
      policy.learning.budget_percentiles.warn,
      policy.learning.budget_percentiles.block,
    ],
  },
];

/** Rules that span several keys, which a JSON Schema cannot say; run on the completed policy. */
export function crossFieldProblems(
  policy: Policy,
  locate: YamlLocator,
  file: string,
): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  for (const { section, low, high, read } of ORDERED) {
    const [lowValue, highValue] = read(policy);
    if (lowValue <= highValue) continue;
    const lowPath = [...section, low];
    const highPath = [...section, high];
    const written = (path: string[]): string => (locate.has(path) ? '' : ', the default');
    // Point at whichever of the two the author wrote: that is the one to change.
    const at = locate.valueAt(locate.has(lowPath) ? lowPath : highPath);
    const name = section.join('.');
    problems.push({
      file,
      line: at.line,
      column: at.column,
      message: `${name}.${low} (${lowValue}${written(lowPath)}) is above ${name}.${high} (${highValue}${written(highPath)}).`,
      hint: `make ${name}.${low} at most ${name}.${high}, or raise ${name}.${high}.`,
    });
  }
  return [...problems, ...unpricedModels(policy, locate, file)];
}

/** The models a provider chain may call: each needs a price, or the dollar caps count nothing. */
function modelsOfChain(provider: Policy['model_provider']): string[] {
  if (provider.provider === 'none') return [];
  const names = [provider.model, provider.planning_model];
  for (const fallback of provider.fallback)
    names.push(fallback.model, fallback.planning_model ?? '');
  return [...new Set(names.filter((name) => name !== ''))];
}

/** A model without a price would spend money the caps never see: an error, not free. */
function unpricedModels(policy: Policy, locate: YamlLocator, file: string): PolicyProblem[] {
  const priced = new Set(policy.model_provider.prices.map((price) => price.model));
  const missing = modelsOfChain(policy.model_provider).filter((model) => !priced.has(model));
  if (missing.length === 0) return [];
  const path = ['model_provider', locate.has(['model_provider', 'prices']) ? 'prices' : 'provider'];
  const at = locate.has(path) ? locate.valueAt(path) : { line: 1, column: 1 };
  const names = missing.map((model) => `"${model}"`).join(', ');
  return [
    {
      file,
      line: at.line,
      column: at.column,
      message: `model_provider.prices has no price for ${names}: its spend could not be held to cost_thresholds' dollar caps.`,
      hint: `add { model: ${missing[0]}, input_usd_per_mtok: …, output_usd_per_mtok: … } to model_provider.prices (0 for a local model that costs nothing).`,
    },
  ];
}
