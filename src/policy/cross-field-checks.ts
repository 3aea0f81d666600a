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
  return problems;
}
