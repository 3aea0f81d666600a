import picomatch from 'picomatch';
import type { Policy } from '../model/policy.js';
import type { YamlLocator } from './locate-in-yaml.js';
import type { PolicyProblem } from './policy-problem.js';
import { nearest } from './suggest-key.js';

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
  return [
    ...problems,
    ...unpricedModels(policy, locate, file),
    ...moduleRuleProblems(policy, locate, file),
  ];
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

/**
 * What makes a `modules` section mean something other than what it says: a list naming a
 * module that is not defined (a typo would forbid or allow nothing), a module naming itself,
 * both lists at once, and two modules whose globs visibly take the same files.
 */
function moduleRuleProblems(policy: Policy, locate: YamlLocator, file: string): PolicyProblem[] {
  const names = Object.keys(policy.modules);
  const problems: PolicyProblem[] = [];
  const at = (path: readonly string[], message: string, hint: string) => {
    const { line, column } = locate.valueAt(path);
    problems.push({ file, line, column, message, hint });
  };
  for (const [name, rule] of Object.entries(policy.modules)) {
    if (rule.may_import !== undefined && rule.may_not_import !== undefined) {
      at(
        ['modules', name, 'may_not_import'],
        `modules.${name} gives both may_import and may_not_import; a module has an allow list or a deny list, not both.`,
        'keep may_import (the only modules it may use) or may_not_import (the modules it must not use), and delete the other.',
      );
    }
    for (const list of ['may_import', 'may_not_import'] as const) {
      (rule[list] ?? []).forEach((target, index) => {
        const where = ['modules', name, list, String(index)];
        if (target === name) {
          at(
            where,
            `modules.${name}.${list} names ${name} itself; imports inside a module are always allowed.`,
            `remove ${name} from the list.`,
          );
        } else if (!Object.hasOwn(policy.modules, target)) {
          const near = nearest(target, names);
          at(
            where,
            `modules.${name}.${list} names "${target}", which is not a module of this policy (modules: ${names.join(', ')}).`,
            near === undefined
              ? `define modules.${target} with its paths, or remove "${target}" from the list.`
              : `write "${near}", or define modules.${target} with its paths.`,
          );
        }
      });
    }
  }
  for (const { earlier, later } of overlappingGlobs(policy)) {
    at(
      ['modules', later.name, 'paths', String(later.index)],
      `modules.${later.name}.paths "${later.glob}" and modules.${earlier.name}.paths "${earlier.glob}" take the same files; a file may belong to one module only.`,
      `narrow the globs so that no file matches both (a module's glob may not hold another module's folder), or merge ${earlier.name} and ${later.name}.`,
    );
  }
  return problems;
}

/**
 * Pairs of globs of two modules where one matches the other's text (`src/**` takes
 * `src/ui/**`): the nesting a policy writes by mistake. Overlaps this cannot see
 * (`src/*.ts` and `src/a.*`) are reported by forbidden_dependency for each file they share.
 */
function overlappingGlobs(policy: Policy) {
  const globs = Object.entries(policy.modules).flatMap(([name, rule]) =>
    rule.paths.map((glob, index) => ({
      name,
      glob,
      index,
      matches: picomatch(glob, { dot: true }),
    })),
  );
  return globs.flatMap((later, at) =>
    globs
      .slice(0, at)
      .filter((earlier) => earlier.name !== later.name)
      .filter((earlier) => earlier.matches(later.glob) || later.matches(earlier.glob))
      .map((earlier) => ({ earlier, later })),
  );
}
